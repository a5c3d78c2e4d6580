/* sbx_host_home: $HOME first, else the account's home, read without NSS
   on Linux; every account of this machine must come out as getpwent,
   which does use NSS, sees it.  */
#include "runtime/host_paths.h"
#include "tests/unit/tap.h"

#include <limits.h>
#include <pwd.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/types.h>

/* The first entry of UID in the database: what a lookup by uid finds.  */
static bool
first_of_uid (uid_t uid, const struct passwd *self)
{
  struct passwd *pw;
  bool first = false;
  setpwent ();
  while ((pw = getpwent ()) != NULL)
    if (pw->pw_uid == uid)
      {
        first = pw->pw_name && strcmp (pw->pw_name, self->pw_name) == 0;
        break;
      }
  endpwent ();
  return first;
}

/* The passwd reader on lines a real file may hold.  */
static void
test_passwd_lines (void)
{
  char path[] = "/tmp/sbx-passwd-XXXXXX";
  int fd = mkstemp (path);
  FILE *f = fd >= 0 ? fdopen (fd, "w") : NULL;
  if (!tap_ok (f != NULL, "a passwd fixture"))
    return;
  fprintf (f,
           "#old:x:1000:1000::/commented:/bin/sh\n"
           "+nis:x:1000:1000::/nis:/bin/sh\n"
           "\n"
           "short:x:1001:1001\n"
           "spaced:x: 1002:1002::/spaced:/bin/sh\n"
           "signed:x:+1003:1003::/signed:/bin/sh\n"
           "alice:x:1000:1000:Alice:/home/alice:/bin/bash\n"
           "again:x:1000:1000::/home/second:/bin/sh\n"
           "noshell:x:1004:1004::/home/noshell\n"
           "long:x:1005:1005::/%0*d\n"
           "after:x:1005:1005::/home/after:/bin/sh\n",
           PATH_MAX, 0);
  fclose (f);
  tap_streq (sbx_passwd_home (path, 1000), "/home/alice",
             "comments and NIS lines are no entries; the first entry wins");
  tap_streq (sbx_passwd_home (path, 1004), "/home/noshell",
             "an entry without its last field");
  tap_ok (sbx_passwd_home (path, 1001) == NULL, "a short line has no home");
  tap_ok (sbx_passwd_home (path, 1002) == NULL
              && sbx_passwd_home (path, 1003) == NULL,
          "a uid field must be all digits");
  tap_ok (sbx_passwd_home (path, 1005) == NULL,
          "a home too long is no home, not the next entry's");
  tap_ok (sbx_passwd_home ("/nonexistent/passwd", 0) == NULL,
          "no file, no home");
  unlink (path);
}

int
main (void)
{
#ifndef __APPLE__
  test_passwd_lines ();
#endif
  setenv ("HOME", "/some/home", 1);
  tap_streq (sbx_host_home (0), "/some/home", "HOME wins over the account");
  setenv ("HOME", "relative", 1);
  tap_ok (sbx_host_home (0) == NULL, "a relative HOME is no home");

  unsetenv ("HOME");
  /* getpwent's entries are overwritten by the next call: copy them.  */
  struct
  {
    uid_t uid;
    char name[256], dir[4096];
  } accounts[512];
  int n = 0;
  struct passwd *pw;
  setpwent ();
  while (n < 512 && (pw = getpwent ()) != NULL)
    if (strlen (pw->pw_name) < 256 && strlen (pw->pw_dir) < 4096)
      {
        accounts[n].uid = pw->pw_uid;
        strcpy (accounts[n].name, pw->pw_name);
        strcpy (accounts[n].dir, pw->pw_dir);
        n++;
      }
  endpwent ();
  tap_ok (n > 0, "this machine has accounts to compare (%d)", n);
  for (int i = 0; i < n; i++)
    {
      struct passwd self = { .pw_name = accounts[i].name };
      if (!first_of_uid (accounts[i].uid, &self))
        continue;
      char name[600];
      snprintf (name, sizeof name, "uid %d (%s): its home",
                (int) accounts[i].uid, accounts[i].name);
      const char *want = accounts[i].dir[0] == '/' ? accounts[i].dir : NULL;
      const char *got = sbx_host_home (accounts[i].uid);
      if (want == NULL)
        tap_ok (got == NULL, "%s is not absolute: none", name);
      else
        tap_streq (got, want, name);
    }
  tap_ok (sbx_host_home ((uid_t) 4000000000u) == NULL,
          "an unknown uid has no home");
  return tap_done ();
}
