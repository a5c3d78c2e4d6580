/* `sbx-oci create [--bundle DIR] [--pid-file F] [--console-socket S]
   [--preserve-fds N] ID`: runc's options, then the create engine
   (runtime/linux/container/create_held.c).  */
#include <errno.h>
#include <getopt.h>

#include "runtime/cli.h"
#include "runtime/linux/container/create_held.h"

static int
parse_create_options (int argc, char **argv, struct sbx_create_request *o,
                      struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "bundle", required_argument, NULL, 'b' },
    { "pid-file", required_argument, NULL, 'P' },
    { "console-socket", required_argument, NULL, 'c' },
    { "preserve-fds", required_argument, NULL, 'p' },
    { "no-pivot", no_argument, NULL, 'x' },
    { "no-new-keyring", no_argument, NULL, 'x' },
    { NULL, 0, NULL, 0 },
  };
  int c;
  while ((c = getopt_long (argc, argv, "+b:", longopts, NULL)) != -1)
    switch (c)
      {
      case 'b':
        o->bundle = optarg;
        break;
      case 'P':
        o->pid_file.path = optarg;
        break;
      case 'c':
        o->console_socket = optarg;
        break;
      case 'p':
        if (sbx_parse_preserve_fds (optarg, &o->preserve_fds, err) < 0)
          return err->code;
        break;
      case 'x':
        break;
      default:
        return sbx_fail_usage (err, "create: unknown option (see --help)");
      }
  if (optind != argc - 1)
    return sbx_fail_usage (err, "create: expected exactly one container id");
  o->id = argv[optind];
  return 0;
}

int
sbx_cmd_create (struct sbx_context *g, int argc, char **argv,
                struct sbx_error *err)
{
  struct sbx_create_request req
      = { .bundle = ".", .pid_file = { .dirfd = -1 } };
  int r = sbx_usage_result (parse_create_options (argc, argv, &req, err), err);
  r = r ?: sbx_file_dest_open (req.pid_file.path, &req.pid_file, err);
  r = r ?: sbx_container_create (g, &req, err);
  sbx_file_dest_close (&req.pid_file);
  return r;
}
