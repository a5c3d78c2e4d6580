/* The error convention's one promise to people reading a message: it is
   one line, whatever the config that caused it held.  */
#include "common/error.h"
#include "tests/unit/tap.h"

#include <errno.h>
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
  return tap_done ();
}
