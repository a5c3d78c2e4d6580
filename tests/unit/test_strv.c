#include "common/error.h"
#include "common/strv.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int
main (void)
{
  struct strv sv = { 0 };
  for (int i = 0; i < 100; i++)
    strv_pushf (&sv, "item-%d", i);
  tap_ok (sv.n == 100 && sv.v[100] == NULL, "push keeps NULL termination");
  tap_ok (strv_contains (&sv, "item-42"), "contains finds an item");
  tap_ok (!strv_contains (&sv, "item-100"), "contains misses an absent item");
  char **v = strv_steal (&sv);
  tap_ok (sv.v == NULL && sv.n == 0 && v[99] != NULL, "steal empties");
  for (int i = 0; v[i]; i++)
    free (v[i]);
  free (v);
  struct strv empty = { 0 };
  v = strv_steal (&empty);
  tap_ok (v != NULL && v[0] == NULL, "steal of an empty vector is {NULL}");
  free (v);

  struct strv names = { 0 };
  char *list = strv_join_list (&names, 4);
  tap_streq (list, "", "join of nothing is empty");
  free (list);
  for (int i = 0; i < 6; i++)
    strv_pushf (&names, "n%d", i);
  list = strv_join_list (&names, 4);
  tap_streq (list, "n0, n1, n2, n3 and 2 more",
             "join shows MAX, counts the rest");
  free (list);
  list = strv_join_list (&names, SIZE_MAX);
  tap_streq (list, "n0, n1, n2, n3, n4, n5", "join of all");
  free (list);
  strv_free (&names);

  struct sbx_error err = { 0 };
  int r = sbx_fail (&err, -ENOENT, "root.path: %s", "does not exist");
  sbx_fail (&err, -EINVAL, "second failure is ignored");
  tap_ok (r == -ENOENT && err.code == -ENOENT, "first failure wins");
  tap_streq (err.msg, "root.path: does not exist", "message kept");
  sbx_error_prefix (&err, "%s", "bundle/config.json");
  tap_streq (err.msg, "bundle/config.json: root.path: does not exist",
             "prefix");
  sbx_error_clear (&err);
  r = sbx_fail_errno (&err, -EACCES, "open %s", "/x");
  tap_streq (err.msg, "open /x: Permission denied", "errno text appended");
  tap_ok (sbx_fail (&err, 5, "x") == -EINVAL, "positive code reads as error");
  return tap_done ();
}
