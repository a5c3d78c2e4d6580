/* What sbx-oci writes as JSON is read back by any strict reader: a
   string of well-formed UTF-8 (control characters included, which JSON
   escapes) goes in exactly; one with a byte of no sequence (a name the
   host gave) has that byte as \xHH, and the document still parses.  */
#include "common/json_gen.h"
#include "common/utf8.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

/* S written as a JSON string and read back, to be freed; NULL when the
   document does not parse.  */
static char *
round_trip (const char *s)
{
  yajl_gen g = sbx_json_new (false);
  char *text = NULL, *back = NULL;
  size_t len = 0;
  if (g && sbx_json_open (g, true) == 0 && sbx_json_str (g, s) == 0
      && sbx_json_close (g, true) == 0
      && sbx_json_finish (g, &text, &len) == 0)
    {
      yajl_val doc = yajl_tree_parse (text, NULL, 0);
      yajl_val v = YAJL_IS_ARRAY (doc) && YAJL_GET_ARRAY (doc)->len == 1
                       ? YAJL_GET_ARRAY (doc)->values[0]
                       : NULL;
      const char *str = YAJL_IS_STRING (v) ? YAJL_GET_STRING (v) : NULL;
      back = str ? strdup (str) : NULL;
      yajl_tree_free (doc);
    }
  free (text);
  if (g)
    yajl_gen_free (g);
  return back;
}

int
main (void)
{
  static const struct
  {
    const char *in;
    bool valid;
    const char *json, *what;
  } cases[] = {
    { "/ws/caf\xc3\xa9/\xf0\x9f\x90\xa7", true,
      "/ws/caf\xc3\xa9/\xf0\x9f\x90\xa7",
      "well-formed UTF-8 goes in exactly" },
    { "a\nb\x1b[7m\xc2\x9b", true, "a\nb\x1b[7m\xc2\x9b",
      "control characters (C0, C1) are valid, and go in exactly" },
    { "/ws/\xff", false, "/ws/\\xff", "a byte of no sequence is \\xHH" },
    { "\xc0\xaf", false, "\\xc0\\xaf", "an overlong form is \\xHH" },
    { "\xed\xa0\x80", false, "\\xed\\xa0\\x80", "a surrogate is \\xHH" },
    { "\xf4\x90\x80\x80", false, "\\xf4\\x90\\x80\\x80",
      "past U+10FFFF is \\xHH" },
    { "end\xe2\x82", false, "end\\xe2\\x82", "a sequence cut short is \\xHH" },
    { "\xe2\x82\xac\xff\xe2\x82\xac", false, "\xe2\x82\xac\\xff\xe2\x82\xac",
      "only the stray byte is \\xHH, the text around it is kept" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      tap_ok (sbx_utf8_valid (cases[i].in) == cases[i].valid,
              "%s: sbx_utf8_valid says %s", cases[i].what,
              cases[i].valid ? "valid" : "not valid");
      char *back = round_trip (cases[i].in);
      tap_streq (back ? back : "(did not parse)", cases[i].json,
                 cases[i].what);
      free (back);
    }
  tap_ok (sbx_utf8_valid (""), "the empty string is valid");
  return tap_done ();
}
