/* The error convention's promises to people reading a message: it is
   one line, whatever the config that caused it held; and to programs: a
   refusal of the config is told apart, with the field it names.  */
#include "common/error.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
main (void)
{
  struct sbx_error err = { 0 };
  int r = sbx_fail (&err, -EINVAL, "mounts[0].source: %s: not found",
                    "/no\nne\x1b[31m");
  tap_ok (r == -EINVAL, "the code is returned");
  tap_streq (err.msg, "mounts[0].source: /no\\x0ane\\x1b[31m: not found",
             "control characters are written as \\xHH");
  struct sbx_error e2 = { 0 };
  sbx_fail_errno (&e2, -ENOENT, "%s", "plain");
  tap_streq (e2.msg, "plain: No such file or directory",
             "an ordinary message is untouched");
  struct sbx_error e3 = { 0 };
  char big[2000];
  memset (big, '\n', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  sbx_fail (&e3, -EINVAL, "%s", big);
  tap_ok (strchr (e3.msg, '\n') == NULL && strlen (e3.msg) < sizeof e3.msg,
          "a message of nothing but newlines is cut, still one line");
  struct sbx_error e4 = { 0 };
  r = sbx_refuse (&e4, -EPERM, "mounts[2].source", "would expose %s", "/x");
  tap_ok (r == -EPERM && e4.kind == SBX_ERROR_REFUSED,
          "sbx_refuse: a refusal, its code returned");
  tap_streq (e4.msg, "mounts[2].source: would expose /x", "  its line");
  tap_streq (e4.field, "mounts[2].source", "  its field");
  sbx_refuse (&e4, -EINVAL, "other", "second");
  tap_streq (e4.field, "mounts[2].source", "  the first error stays");
  sbx_error_prefix (&e4, "/b/config.json");
  tap_streq (e4.field, "mounts[2].source", "  a prefix leaves the field");
  struct sbx_error e5 = { 0 };
  sbx_refuse (&e5, -EINVAL, NULL, "invalid JSON: %s", "x");
  tap_ok (e5.kind == SBX_ERROR_REFUSED && e5.field[0] == '\0'
              && strcmp (e5.msg, "invalid JSON: x") == 0,
          "sbx_refuse without a field: the config as a whole");
  struct sbx_error e6 = { 0 };
  sbx_refuse_path (&e6, -EINVAL, "linux.seccomp.flags[%d]: unsupported %s", 3,
                   "\"X: Y\"");
  tap_streq (e6.field, "linux.seccomp.flags[3]",
             "sbx_refuse_path: the field is the path before the first \": \"");
  tap_streq (e6.msg, "linux.seccomp.flags[3]: unsupported \"X: Y\"",
             "  the line is whole");
  struct sbx_error e7 = { 0 };
  sbx_fail (&e7, -EIO, "plain");
  tap_ok (e7.kind == SBX_ERROR_RUNTIME && e7.field[0] == '\0',
          "sbx_fail is no refusal");
  sbx_error_clear (&e4);
  tap_ok (e4.kind == SBX_ERROR_RUNTIME && e4.field[0] == '\0',
          "sbx_error_clear clears the field");
  /* What a sandbox may name reaches terminals and JSON only as valid
     UTF-8 text: C1 controls and every byte of no well-formed sequence
     are escaped too, well-formed text is kept.  */
  static const struct
  {
    const char *in, *out, *what;
  } texts[] = {
    { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
      "well-formed UTF-8 (2, 3 and 4 bytes) is kept" },
    { "a\xc2\x9b"
      "2J",
      "a\\xc2\\x9b2J", "a C1 control (CSI, U+009B) is escaped" },
    { "x\xff\xfey", "x\\xff\\xfey", "bytes of no sequence are escaped" },
    { "\xc0\xaf", "\\xc0\\xaf", "an overlong form is escaped" },
    { "\xed\xa0\x80", "\\xed\\xa0\\x80", "a surrogate is escaped" },
    { "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "past U+10FFFF is escaped" },
    { "end\xe2\x82", "end\\xe2\\x82", "a sequence cut short is escaped" },
  };
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
    {
      char *got = sbx_escaped_dup (texts[i].in);
      tap_streq (got ? got : "(null)", texts[i].out, texts[i].what);
      free (got);
    }
  return tap_done ();
}
