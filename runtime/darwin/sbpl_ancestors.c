/* The ancestors of what a profile protects.  Seatbelt rules name paths,
   and macOS has no mount points to pin them: renaming an ancestor
   (`mv .git .git2`, write .git2/hooks/x, `mv .git2 .git`) would walk the
   protected path out from under its rule.  The peer agent sandbox's
   generator (generateMoveBlockingRules) denies file-write-unlink, which a
   rename's source needs, on every ancestor of a protected path; so does
   this, once, after every other rule, so that no later grant re-opens
   them.  */
#include "common/cleanup.h"
#include "runtime/darwin/sbpl_emit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
sbpl_guard (struct profile *pr, const char *canon)
{
  if (strv_contains (&pr->guarded, canon))
    return 0;
  return strv_push (&pr->guarded, canon) < 0
             ? sbx_fail (pr->err, -ENOMEM, "out of memory")
             : 0;
}

/* Push every ancestor of CANON below "/" (and, when TOP is set, up to and
   including TOP) that OUT lacks.  */
static int
push_ancestors (const char *canon, const char *top, struct strv *out)
{
  cleanup_free char *dir = strdup (canon);
  if (dir == NULL)
    return -ENOMEM;
  for (;;)
    {
      char *slash = strrchr (dir, '/');
      if (slash == NULL || slash == dir)
        return 0;
      *slash = '\0';
      if (!strv_contains (out, dir) && strv_push (out, dir) < 0)
        return -ENOMEM;
      if (top && strcmp (dir, top) == 0)
        return 0;
    }
}

static int
emit_literals (struct profile *pr, const struct strv *paths)
{
  for (size_t i = 0; i < paths->n; i++)
    {
      cleanup_free char *q = NULL;
      int r = sbpl_quote_path (pr, SIZE_MAX, paths->v[i], &q);
      if (r < 0)
        return r;
      fprintf (pr->f, "\n  (literal %s)", q);
    }
  return 0;
}

int
sbpl_emit_guards (struct profile *pr)
{
  cleanup_strv struct strv up = { 0 };
  for (size_t i = 0; i < pr->guarded.n; i++)
    if (push_ancestors (pr->guarded.v[i], NULL, &up) < 0)
      return sbx_fail (pr->err, -ENOMEM, "out of memory");
  if (up.n == 0)
    return 0;
  fputs ("; ancestors of protected and hidden paths: no rename or removal\n"
         "(deny file-write-unlink",
         pr->f);
  int r = emit_literals (pr, &up);
  fputs (") ; ancestors\n", pr->f);
  return r;
}

/* A grant nested in a hidden directory must be reachable by path:
   realpath(3), getcwd(3) and many tools stat every directory on the way.
   Their metadata (not their names or contents) is readable again, as
   Chromium's profiles re-allow file-read-metadata on the parents of the
   paths they grant.  */
int
sbpl_emit_ancestor_metadata (struct profile *pr, const char *canon,
                             const char *top)
{
  cleanup_strv struct strv up = { 0 };
  if (push_ancestors (canon, top, &up) < 0)
    return sbx_fail (pr->err, -ENOMEM, "out of memory");
  fputs ("(allow file-read-metadata", pr->f);
  int r = emit_literals (pr, &up);
  fputs (") ; the way to a nested grant\n", pr->f);
  return r;
}
