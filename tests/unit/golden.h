/* Test helper: compare generated text with a golden file in the source
   tree, shared by the bwrap argument and Seatbelt profile tests.  With
   SBX_UPDATE_GOLDEN=1 the golden file is rewritten instead.  */
#ifndef SBX_TEST_GOLDEN_H
#define SBX_TEST_GOLDEN_H

#include "common/file_io.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print the first line where GOT and WANT differ, as TAP diagnostics.  */
static void
golden_show_first_difference (const char *got, const char *want)
{
  const char *start = got;
  int line = 1;
  while (*got && *got == *want)
    {
      if (*got == '\n')
        line++;
      got++, want++;
    }
  while (got > start && got[-1] != '\n')
    got--, want--;
  printf ("# first difference at line %d\n# got:  %.*s\n# want: %.*s\n", line,
          (int) strcspn (got, "\n"), got, (int) strcspn (want, "\n"), want);
}

/* One TAP result: NAME's text GOT equals ROOT/tests/golden/DIR/NAME.EXT.  */
static void
check_golden (const char *root, const char *dir, const char *name,
              const char *ext, const char *got)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/tests/golden/%s/%s.%s", root, dir, name,
            ext);
  const char *update = getenv ("SBX_UPDATE_GOLDEN");
  if (update && strcmp (update, "1") == 0)
    {
      FILE *f = fopen (path, "w");
      bool written = f && fputs (got, f) >= 0;
      if (f && fclose (f) != 0)
        written = false;
      tap_ok (written, "%s: golden rewritten at %s", name, path);
      return;
    }
  struct sbx_error err = { 0 };
  char *want = NULL;
  size_t len = 0;
  int r = sbx_read_file (path, 1 << 20, &want, &len, &err);
  bool same = r == 0 && strcmp (got, want) == 0;
  if (!tap_ok (same, "%s: matches %s", name, path))
    {
      if (r == 0)
        golden_show_first_difference (got, want);
      else
        printf ("# cannot read %s (%s); run with SBX_UPDATE_GOLDEN=1\n", path,
                r == -ENOENT ? "no such file" : err.msg);
    }
  free (want);
}

#endif
