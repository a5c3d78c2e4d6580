#include "runtime/darwin/seatbelt_profile.h"

#include <stdio.h>

#include "common/cleanup.h"
#include "runtime/darwin/sbpl.h"
#include "runtime/shell_quote.h"

int
sbx_seatbelt_profile (const struct sbx_plan *plan, char **out,
                      struct sbx_error *err)
{
  struct sbx_macos_paths paths = { .resolve = sbx_macos_realpath };
  return sbx_sbpl_profile (plan, &paths, out, err);
}

int
sbx_seatbelt_dry_run (const struct sbx_plan *plan, const char *sandbox_exec,
                      struct sbx_error *err)
{
  cleanup_free char *profile = NULL;
  int r = sbx_seatbelt_profile (plan, &profile, err);
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
