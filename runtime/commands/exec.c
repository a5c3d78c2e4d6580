/* `sbx-oci exec [options] ID [COMMAND...]`: runc's options, then the exec
   engine (runtime/linux/container/exec_join.c).  */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/prctl.h>

#include "runtime/cli.h"
#include "runtime/linux/container/exec_join.h"

static int
parse_exec_options (int argc, char **argv, struct sbx_exec_request *o,
                    struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "process", required_argument, NULL, 'p' },
    { "pid-file", required_argument, NULL, 'P' },
    { "cwd", required_argument, NULL, 'w' },
    { "env", required_argument, NULL, 'e' },
    { "detach", no_argument, NULL, 'd' },
    { "tty", no_argument, NULL, 't' },
    { "console-socket", required_argument, NULL, 'c' },
    { "preserve-fds", required_argument, NULL, 'F' },
    { "user", required_argument, NULL, 'u' },
    { "cap", required_argument, NULL, 'C' },
    { "no-new-privs", no_argument, NULL, 'x' }, /* always in effect */
    { "process-label", required_argument, NULL, 'L' },
    { "apparmor", required_argument, NULL, 'A' },
    { NULL, 0, NULL, 0 },
  };
  int c;
  while ((c = getopt_long (argc, argv, "+p:w:e:dtu:", longopts, NULL)) != -1)
    switch (c)
      {
      case 'p':
        o->process_file = optarg;
        break;
      case 'P':
        o->pid_file.path = optarg;
        break;
      case 'w':
        o->cwd = optarg;
        break;
      case 'e':
        if (strv_push (&o->env, optarg) < 0)
          return sbx_fail (err, -ENOMEM, "out of memory");
        break;
      case 'd':
        o->detach = true;
        break;
      case 'x':
        break;
      /* Taken by runc's exec; ignoring them would run the process with
         less than, or other than, what was asked.  */
      case 'C':
        return sbx_fail (err, -ENOTSUP,
                         "exec --cap: not supported; put the capability in "
                         "the --process file's capabilities");
      /* "" is no label, as in a config.  */
      case 'L':
        o->process_label = optarg[0] ? optarg : NULL;
        break;
      case 'A':
        o->apparmor = optarg[0] ? optarg : NULL;
        break;
      case 't':
        o->tty = true;
        break;
      case 'c':
        o->console_socket = optarg;
        break;
      case 'F':
        if (sbx_parse_preserve_fds (optarg, &o->preserve_fds, err) < 0)
          return err->code;
        break;
      case 'u':
        return sbx_fail (err, -ENOTSUP,
                         "exec --user: give the user in --process");
      default:
        return sbx_fail_usage (err, "exec: unknown option (see --help)");
      }
  if (optind >= argc)
    return sbx_fail_usage (err, "exec: a container id is required");
  if (o->process_file == NULL && optind + 1 >= argc)
    return sbx_fail (err, -EINVAL, "exec: give --process FILE or a command");
  if (o->tty && o->console_socket == NULL)
    return sbx_fail (err, -EINVAL, "exec --tty: --console-socket is required");
  o->id = argv[optind];
  for (int i = optind + 1; i < argc; i++)
    if (strv_push (&o->args, argv[i]) < 0)
      return sbx_fail (err, -ENOMEM, "out of memory");
  return 0;
}

int
sbx_cmd_exec (struct sbx_context *g, int argc, char **argv,
              struct sbx_error *err)
{
  struct sbx_exec_request req = { .pid_file = { .dirfd = -1 } };
  /* First of all: a non-dumpable process's /proc/PID/exe, which names the
     host's sbx-oci, is out of reach of a sandbox that shares the host's
     pid namespace (exec_join.c says how the processes that join it stay
     out of reach too).  */
  int r = prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) < 0
              ? sbx_fail_errno (err, -errno, "exec: prctl (PR_SET_DUMPABLE)")
              : 0;
  r = r ?: sbx_usage_result (parse_exec_options (argc, argv, &req, err), err);
  r = r ?: sbx_file_dest_open (req.pid_file.path, &req.pid_file, err);
  r = r ?: sbx_container_exec (g, &req, err);
  sbx_file_dest_close (&req.pid_file);
  strv_free (&req.args);
  strv_free (&req.env);
  return r;
}
