/* `sbx-oci ps [--format table|json] ID`: the host pids of the sandbox's
   processes (ns_procs.h).  */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "runtime/cli.h"
#include "runtime/linux/container/ns_procs.h"
#include "runtime/linux/state/state_store.h"

static void
print_table (const pid_t *pids, size_t n)
{
  printf ("%-8s %s\n", "PID", "CMD");
  for (size_t i = 0; i < n; i++)
    {
      /* A process's name is its own to write (16 bytes, \xHH each at
         most here): a terminal escape in it is shown as text.  */
      char path[64], comm[96] = "?";
      snprintf (path, sizeof path, "/proc/%d/comm", (int) pids[i]);
      FILE *f = fopen (path, "re");
      if (f && fgets (comm, sizeof comm, f))
        comm[strcspn (comm, "\n")] = '\0';
      if (f)
        fclose (f);
      sbx_escape_controls (comm, sizeof comm);
      printf ("%-8d %s\n", (int) pids[i], comm);
    }
}

int
sbx_cmd_ps (struct sbx_context *g, int argc, char **argv,
            struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "format", required_argument, NULL, 'f' },
    { NULL, 0, NULL, 0 },
  };
  bool json = false;
  int c;
  while ((c = getopt_long (argc, argv, "+f:", longopts, NULL)) != -1)
    if (c == 'f'
        && (strcmp (optarg, "json") == 0 || strcmp (optarg, "table") == 0))
      json = optarg[0] == 'j';
    else
      return sbx_fail_usage (err, "ps: expected --format table|json");
  if (optind != argc - 1)
    return sbx_fail_usage (err, "ps: expected exactly one container id");
  struct sbx_container ct;
  int r = sbx_state_open (sbx_state_root (g), argv[optind], false, &ct, err);
  pid_t *pids = NULL;
  size_t n = 0;
  if (r == 0 && sbx_state_pid_alive (&ct)
      && sbx_sandbox_pids (ct.pid, &pids, &n) < 0)
    n = 0; /* ended while we looked */
  if (r == 0 && json)
    {
      putchar ('[');
      for (size_t i = 0; i < n; i++)
        printf ("%s%d", i ? "," : "", (int) pids[i]);
      puts ("]");
    }
  else if (r == 0)
    print_table (pids, n);
  free (pids);
  sbx_state_close (&ct);
  return r < 0 ? r : 0;
}
