/* The structure of generated profiles: string quoting, adversarial paths
   that try to leave their string, and the structural checker itself (it
   must reject what is wrong, or the golden tests prove nothing).  */
#include "runtime/darwin/sbpl.h"
#include "tests/unit/sbpl_check.h"
#include "tests/unit/sbpl_plan.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void
test_quote (void)
{
  static const struct
  {
    const char *in, *want;
  } cases[] = {
    { "/plain/path", "\"/plain/path\"" },
    { "/a\"b", "\"/a\\\"b\"" },
    { "/a\\b", "\"/a\\\\b\"" },
    { "/a\nb\tc\rd", "\"/a\\nb\\tc\\rd\"" },
    { "/\\\"", "\"/\\\\\\\"\"" },
    { "/caf\xc3\xa9 (x) ;y", "\"/caf\xc3\xa9 (x) ;y\"" },
    { "", "\"\"" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      struct sbx_error err = { 0 };
      char *q = NULL;
      int r = sbx_sbpl_quote (cases[i].in, &q, &err);
      tap_ok (r == 0, "quote case %zu succeeds", i);
      tap_streq (q, cases[i].want, "quote case escapes exactly");
      free (q);
    }
  for (unsigned c = 1; c < 0x20; c++)
    {
      if (c == '\n' || c == '\t' || c == '\r')
        continue;
      char in[] = { '/', 'a', (char) c, 'b', 0 };
      struct sbx_error err = { 0 };
      char *q = NULL;
      int r = sbx_sbpl_quote (in, &q, &err);
      if (!tap_ok (r == -EINVAL && q == NULL, "control byte 0x%02x refused",
                   c))
        printf ("# %d %s\n", r, err.msg);
      free (q);
    }
  struct sbx_error err = { 0 };
  char *q = NULL;
  tap_ok (sbx_sbpl_quote ("/a\x7f", &q, &err) == -EINVAL && q == NULL,
          "DEL refused");
}

/* Count the top-level forms of PROFILE and collect the decoded string
   arguments of every path filter.  */
static void
walk_strings (const struct sx *x, const char **found, size_t *n)
{
  if (x->kind == SX_STRING)
    {
      if (*n < 16)
        found[(*n)++] = x->text;
      return;
    }
  for (size_t i = 0; i < x->n; i++)
    walk_strings (x->kids[i], found, n);
}

/* A workspace plan with one extra entry OP at PATH.  */
static char *
profile_with (enum sbx_plan_op op, enum sbx_plan_why why, const char *path,
              struct sbx_error *err)
{
  struct sbx_plan p;
  tp_init (&p, SBX_MODE_WORKSPACE_WRITE, SBX_NET_DENY);
  tp_add (&p, op, why,
          op == SBX_PLAN_BIND_RW || op == SBX_PLAN_BIND_RO ? path : NULL,
          path);
  char *profile = NULL;
  sbx_sbpl_profile (&p, NULL, &profile, err);
  tp_free (&p);
  return profile;
}

static size_t
form_count (const char *profile)
{
  struct sx_reader rd;
  struct sx *all = sx_read_all (&rd, profile);
  size_t n = all ? all->n : 0;
  sx_free (all);
  return n;
}

/* Each adversarial path must come back, decoded, as exactly the string it
   was, inside the one rule it belongs to: no extra forms, no extra
   strings.  */
static void
test_adversarial_paths (void)
{
  static const char *const paths[] = {
    "/x\")) (allow file-write* (subpath \"/a",
    "/x\\\")) (allow default) ; z",
    "/x\n(allow file-write* (subpath \"/\"))\n",
    "/x\\",
    "/x\\\\\"",
    "/; comment (deny default)",
    "/x\t\r\"\"\"",
  };
  static const enum sbx_plan_op ops[]
      = { SBX_PLAN_BIND_RW, SBX_PLAN_BIND_RO, SBX_PLAN_HIDE_DIR,
          SBX_PLAN_HIDE_FILE };
  struct sbx_error err = { 0 };
  char *benign
      = profile_with (SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, "/benign", &err);
  size_t base = form_count (benign);
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
      {
        enum sbx_plan_why why = ops[k] == SBX_PLAN_HIDE_FILE
                                    ? SBX_WHY_SOCKET
                                    : SBX_WHY_OCI_MOUNT;
        sbx_error_clear (&err);
        char *profile = profile_with (ops[k], why, paths[i], &err);
        struct sx_reader rd;
        struct sx *all = profile ? sx_read_all (&rd, profile) : NULL;
        const char *found[16];
        size_t n = 0;
        bool ok = all && sbpl_check (&rd, profile);
        size_t rules = 0;
        for (size_t f = 0; ok && f < all->n; f++)
          {
            size_t before = n;
            walk_strings (all->kids[f], found, &n);
            for (size_t s = before; s < n; s++)
              if (strcmp (found[s], paths[i]) == 0)
                rules++;
          }
        /* A grant or a read-only path is one rule; a hidden path two
           (the deny, and its metadata readable), a hidden socket three
           (and no connect), as the benign socket's.  A path with a parent
           below "/" adds the one rule that keeps its ancestors in place
           (the benign one has none); the path's own string is never in
           it.  */
        size_t want_rules = ops[k] == SBX_PLAN_HIDE_FILE  ? 3
                            : ops[k] == SBX_PLAN_HIDE_DIR ? 2
                                                          : 1;
        bool guarded
            = ops[k] != SBX_PLAN_BIND_RW && strchr (paths[i] + 1, '/') != NULL;
        size_t want_forms = base - 3 + want_rules + (guarded ? 1 : 0);
        ok = ok && rules == want_rules && all->n == want_forms;
        if (!tap_ok (ok, "adversarial path %zu, op %d stays one string", i,
                     (int) ops[k]))
          printf ("# %s | %s | rules %zu\n", err.msg, profile ? rd.why : "",
                  rules);
        sx_free (all);
        free (profile);
      }
  free (benign);
}

static void
expect_rejected (const char *profile, const char *why_part, const char *name)
{
  struct sx_reader rd;
  bool ok = sbpl_check (&rd, profile);
  if (!tap_ok (!ok && strstr (rd.why, why_part), "checker rejects %s", name))
    printf ("# why: %s\n", rd.why);
}

static void
test_checker_rejects (void)
{
  struct sx_reader rd;
  tap_ok (sbpl_check (&rd, "(version 1)\n(allow default) ; ok\n"
                           "(deny file-write* (subpath \"/a\\\"b\"))\n"),
          "checker accepts a good profile");
  expect_rejected ("(version 1)\n(allow default", "unbalanced",
                   "a missing ')'");
  expect_rejected ("(version 1))", "stray", "a stray ')'");
  expect_rejected ("(allow default)", "version", "a missing version");
  expect_rejected ("(version 1)(allow file-wrte*)", "unknown operation",
                   "a misspelt operation");
  expect_rejected ("(version 1)(deny file-write* (subpth \"/a\"))",
                   "unknown filter", "an unknown filter");
  expect_rejected ("(version 1)(deny file-write* (subpath \"a\"))",
                   "not absolute", "a relative path");
  expect_rejected ("(version 1)(deny file-write* (subpath \"/a\\q\"))",
                   "unknown escape", "an unknown escape");
  expect_rejected ("(version 1)(deny file-write* (subpath \"/a\nb\"))",
                   "raw control", "a raw newline in a string");
  expect_rejected ("(version 1)(deny file-write* (subpath \"/a))",
                   "unterminated", "an unterminated string");
  expect_rejected (
      "(version 1)(deny network-outbound (remote ip \"8.8.8.8:53\"))",
      "localhost", "an ip literal Seatbelt refuses");
  expect_rejected ("(version 1)(deny (subpath \"/a\"))", "no operation",
                   "a rule without an operation");
  expect_rejected (
      "(version 1)(deny file-write* (require-not (subpath \"/a\") "
      "(subpath \"/b\")))",
      "wrong number", "require-not with two filters");
  expect_rejected ("(version 1)(import \"bsd.sb\")", "not allow or deny",
                   "an unexpected top-level form");
  /* Issue 17, 9: what every hardened profile carried before, with no
     anchor in the profiles that run on Macs.  */
  expect_rejected ("(version 1)(deny file-write* (require-all (subpath "
                   "\"/Users/me/.ssh\")))",
                   "of one filter", "a require-all of one filter");
  expect_rejected ("(version 1)(allow file-write* (regex #\"/dev/tty\"))",
                   "#\"^...\"", "an unanchored regex");
  expect_rejected ("(version 1)(deny mach-lookup (global-name))",
                   "takes one string", "a global-name without a name");
  tap_ok (sbpl_check (&rd,
                      "(version 1)(deny lsopen)(deny appleevent-send)\n"
                      "(allow file-ioctl (regex #\"^/dev/ttys[0-9]+$\"))\n"
                      "(deny file-write-unlink (literal \"/a\"))"),
          "checker accepts the operations and filters the profile uses");
}

/* The header comment names sbx-oci and the mode, before (version 1).  */
static void
test_header (void)
{
  struct sbx_error err = { 0 };
  char *profile
      = profile_with (SBX_PLAN_BIND_RW, SBX_WHY_WORKSPACE, "/w", &err);
  const char *want = "; sbx-oci seatbelt profile: mode workspace-write, "
                     "network deny\n";
  tap_ok (profile && strncmp (profile, want, strlen (want)) == 0,
          "first line names sbx-oci, the mode and the network");
  free (profile);
}

int
main (void)
{
  test_quote ();
  test_adversarial_paths ();
  test_checker_rejects ();
  test_header ();
  return tap_done ();
}
