#include "runtime/darwin/seatbelt_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/darwin/sbpl.h"
#include "runtime/host_paths.h"
#include "runtime/shell_quote.h"

/* confstr(3)'s NAME, as a malloc'd string; NULL when it has none.  */
static char *
conf_string (int name)
{
  size_t n = confstr (name, NULL, 0);
  char *buf = n > 1 ? malloc (n) : NULL;
  if (buf && confstr (name, buf, n) == 0)
    {
      free (buf);
      return NULL;
    }
  return buf;
}

/* Apple's per-user directories, asked at run time: they are
   /var/folders/XX/YYY/{T,C}/ and differ per user and per machine.  */
static void
user_dirs (char **temp, char **cache)
{
  *temp = *cache = NULL;
#if defined(_CS_DARWIN_USER_TEMP_DIR) && defined(_CS_DARWIN_USER_CACHE_DIR)
  *temp = conf_string (_CS_DARWIN_USER_TEMP_DIR);
  *cache = conf_string (_CS_DARWIN_USER_CACHE_DIR);
#else
  (void) conf_string;
#endif
}

int
sbx_seatbelt_profile (const struct sbx_spec *spec, const struct sbx_plan *plan,
                      char **out, struct sbx_error *err)
{
  cleanup_free char *temp = NULL;
  cleanup_free char *cache = NULL;
  user_dirs (&temp, &cache);
  uid_t uid = geteuid ();
  struct sbx_sbpl_host host = {
    .paths = { .resolve = sbx_macos_realpath },
    .home = sbx_host_home (uid),
    .user_temp_dir = temp,
    .user_cache_dir = cache,
    .uid = (long) uid,
    .hardened = spec->ext.hardened_defaults,
    .launch_services = spec->ext.allow_launch_services,
  };
  return sbx_sbpl_profile (plan, &host, out, err);
}

int
sbx_seatbelt_dry_run (const struct sbx_spec *spec, const struct sbx_plan *plan,
                      const char *sandbox_exec, struct sbx_error *err)
{
  cleanup_free char *profile = NULL;
  int r = sbx_seatbelt_profile (spec, plan, &profile, err);
  if (r < 0)
    return r;
  fputs (profile, stdout);
  printf ("; run as: %s -p PROFILE --", sandbox_exec);
  for (size_t i = 0; i < plan->argv.n; i++)
    {
      putchar (' ');
      sbx_shell_quote (stdout, plan->argv.v[i]);
    }
  putchar ('\n');
  return 0;
}
