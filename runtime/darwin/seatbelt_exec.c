/* Exec through sandbox-exec: the profile applies from the first
   instruction of the command and to everything it starts.  Built on macOS
   only (runtime/darwin/meson.build).  */
#include "runtime/darwin/seatbelt_exec.h"

#include "common/cleanup.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

int
sbx_seatbelt_exec (const char *profile, char *const argv[], char *const envp[],
                   struct sbx_error *err)
{
  size_t n = 0;
  while (argv[n])
    n++;
  if (n == 0)
    return sbx_fail (err, -EINVAL,
                     "process.args: empty; name the command "
                     "to run");
  /* "--" ends sandbox-exec's options, so a command whose name starts with
     '-' is run, not parsed.  */
  cleanup_free char **args = calloc (n + 5, sizeof *args);
  if (args == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  args[0] = (char *) "sandbox-exec";
  args[1] = (char *) "-p";
  args[2] = (char *) profile;
  args[3] = (char *) "--";
  for (size_t i = 0; i < n; i++)
    args[4 + i] = argv[i];
  execve (SBX_SANDBOX_EXEC, args, envp);
  return sbx_fail_errno (err, -errno, "exec %s", SBX_SANDBOX_EXEC);
}
