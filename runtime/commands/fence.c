/* `sbx-oci fence OP --config FILE [PATH...]`: the fence (fence/fence.h)
   on the command line, for orchestrators in any language.  Content comes
   on stdin (write, append) and goes to stdout (read; stat and list print
   JSON).  Exit status: 0 done (for check: every path allowed), 3 refused
   by the policy, else runtime/exit_status.h's.  With --verdict-fd N, one JSON
   line per path goes to descriptor N: the verdict for `check`, and for the
   other operations the verdict of a refusal or {"path", "error",
   "message"} of another error, so that a client can tell them apart
   without reading stderr.  */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/json_gen.h"
#include "fence/fence.h"
#include "runtime/cli.h"

#define FENCE_DENIED 3

struct fence_cli
{
  struct sbx_fence_options opts;
  enum sbx_fence_access access; /* check --access */
  int verdict_fd;               /* -1: none */
  size_t max_bytes;             /* read, write, append */
  mode_t mode;                  /* mkdir */
};

/* The verdict of a refusal, or the error: one line on --verdict-fd.  */
/* The errno names a verdict carries (musl has no strerrorname_np): what
   a file operation can fail with; anything else is reported as EIO.  */
static const char *
errno_name (int code)
{
#define NAME(e)                                                               \
  case e:                                                                     \
    return #e
  switch (code)
    {
      NAME (EPERM);
      NAME (ENOENT);
      NAME (EINTR);
      NAME (EIO);
      NAME (ENXIO);
      NAME (EBADF);
      NAME (EAGAIN);
      NAME (ENOMEM);
      NAME (EACCES);
      NAME (EFAULT);
      NAME (EBUSY);
      NAME (EEXIST);
      NAME (EXDEV);
      NAME (ENODEV);
      NAME (ENOTDIR);
      NAME (EISDIR);
      NAME (EINVAL);
      NAME (ENFILE);
      NAME (EMFILE);
      NAME (ETXTBSY);
      NAME (EFBIG);
      NAME (ENOSPC);
      NAME (ESPIPE);
      NAME (EROFS);
      NAME (EMLINK);
      NAME (EPIPE);
      NAME (ERANGE);
      NAME (ENAMETOOLONG);
      NAME (ENOSYS);
      NAME (ENOTEMPTY);
      NAME (ELOOP);
      NAME (ENODATA);
      NAME (EOVERFLOW);
      NAME (EOPNOTSUPP);
      NAME (EDQUOT);
      NAME (ESTALE);
      NAME (ETIMEDOUT);
    }
#undef NAME
  return "EIO";
}

static void
report (const struct fence_cli *c, const char *path,
        const struct sbx_fence_verdict *v, const struct sbx_error *err)
{
  if (c->verdict_fd < 0)
    return;
  cleanup_free char *text = NULL;
  if (v && v->path)
    text = sbx_fence_verdict_json (v);
  else
    {
      yajl_gen g = sbx_json_new (false);
      cleanup_free char *line = NULL;
      if (g && sbx_json_open (g, false) == 0
          && sbx_json_key_str (g, "path", path) == 0
          && sbx_json_key_str (g, "error", errno_name (-err->code)) == 0
          && sbx_json_key_str (g, "message", err->msg) == 0
          && sbx_json_close (g, false) == 0
          && sbx_json_finish (g, &line, NULL) == 0)
        text = line, line = NULL;
      if (g)
        yajl_gen_free (g);
    }
  if (text)
    dprintf (c->verdict_fd, "%s\n", strtok (text, "\n"));
}

/* All of stdin, at most MAX bytes: the content of write and append.  */
static int
read_stdin (size_t max, char **data, size_t *len, struct sbx_error *err)
{
  size_t cap = 0, n = 0;
  cleanup_free char *buf = NULL;
  for (;;)
    {
      if (n == cap)
        {
          if (n > max)
            return sbx_fail (err, -EFBIG,
                             "fence: stdin: more than --max-bytes %zu", max);
          char *p = realloc (buf, cap = cap ? cap * 2 : 65536);
          if (p == NULL)
            return sbx_fail (err, -ENOMEM, "out of memory");
          buf = p;
        }
      ssize_t got = read (STDIN_FILENO, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return sbx_fail_errno (err, -errno, "fence: stdin");
      if (got == 0)
        break;
      n += (size_t) got;
    }
  if (n > max)
    return sbx_fail (err, -EFBIG, "fence: stdin: more than --max-bytes %zu",
                     max);
  *data = buf;
  buf = NULL;
  *len = n;
  return 0;
}

static int
write_stdout (const char *data, size_t len)
{
  return fwrite (data, 1, len, stdout) == len && fflush (stdout) == 0 ? 0
                                                                      : -EIO;
}

/* G's document (R: how building it went) on stdout; G is freed.  */
static int
print_json (yajl_gen g, int r)
{
  cleanup_free char *text = NULL;
  size_t len = 0;
  if (r == 0)
    r = sbx_json_finish (g, &text, &len);
  if (g)
    yajl_gen_free (g);
  return r == 0 ? write_stdout (text, len) : r;
}

static int
print_stat (const struct stat *st, const char *path)
{
  const char *type = S_ISREG (st->st_mode)   ? "file"
                     : S_ISDIR (st->st_mode) ? "directory"
                     : S_ISLNK (st->st_mode) ? "symlink"
                                             : "other";
  yajl_gen g = sbx_json_new (false);
  int r = g ? sbx_json_open (g, false) : -ENOMEM;
  if (r == 0)
    r = sbx_json_key_str (g, "path", path);
  if (r == 0)
    r = sbx_json_key_str (g, "type", type);
  if (r == 0)
    r = sbx_json_key_int (g, "size", (long long) st->st_size);
  if (r == 0)
    r = sbx_json_key_int (g, "mode", st->st_mode & 07777);
  if (r == 0)
    r = sbx_json_key_int (g, "nlink", (long long) st->st_nlink);
  if (r == 0)
    r = sbx_json_key_int (g, "mtime", (long long) st->st_mtime);
  if (r == 0)
    r = sbx_json_close (g, false);
  return print_json (g, r);
}

static int
print_names (const struct strv *names)
{
  yajl_gen g = sbx_json_new (false);
  int r = g ? sbx_json_open (g, true) : -ENOMEM;
  for (size_t i = 0; r == 0 && i < names->n; i++)
    r = sbx_json_str (g, names->v[i]);
  if (r == 0)
    r = sbx_json_close (g, true);
  return print_json (g, r);
}

/* One operation on PATH (and TO, for rename).  */
static int
one_op (const struct fence_cli *c, struct sbx_fence *f, const char *op,
        const char *path, const char *to, struct sbx_fence_verdict *v,
        struct sbx_error *err)
{
  cleanup_free char *data = NULL;
  size_t len = 0;
  int r = -EINVAL;
  if (strcmp (op, "read") == 0
      && (r = sbx_fence_read (f, path, c->max_bytes, &data, &len, v, err))
             == 0)
    r = write_stdout (data, len);
  else if (strcmp (op, "write") == 0 || strcmp (op, "append") == 0)
    {
      r = read_stdin (c->max_bytes, &data, &len, err);
      if (r == 0)
        r = op[0] == 'w' ? sbx_fence_write (f, path, data, len, v, err)
                         : sbx_fence_append (f, path, data, len, v, err);
    }
  else if (strcmp (op, "mkdir") == 0)
    r = sbx_fence_mkdir (f, path, c->mode, v, err);
  else if (strcmp (op, "remove") == 0)
    r = sbx_fence_remove (f, path, v, err);
  else if (strcmp (op, "rename") == 0)
    r = sbx_fence_rename (f, path, to, v, err);
  else if (strcmp (op, "stat") == 0)
    {
      struct stat st;
      r = sbx_fence_stat (f, path, &st, v, err);
      if (r == 0)
        r = print_stat (&st, path);
    }
  else if (strcmp (op, "list") == 0)
    {
      cleanup_strv struct strv names = { 0 };
      r = sbx_fence_list (f, path, &names, v, err);
      if (r == 0)
        r = print_names (&names);
    }
  if (r < 0 && err->code == 0)
    r = sbx_fail (err, r, "fence: %s %s: cannot write the result", op, path);
  return r;
}

static int
check_paths (const struct sbx_context *g, const struct fence_cli *c,
             struct sbx_fence *f, char **paths, int n, struct sbx_error *err)
{
  bool all = true;
  for (int i = 0; i < n; i++)
    {
      struct sbx_fence_verdict v;
      int r = sbx_fence_check (f, paths[i], c->access, &v, err);
      if (r < 0)
        return r;
      all &= v.allowed;
      report (c, paths[i], &v, err);
      struct sbx_error why = { 0 };
      if (!v.allowed && sbx_fence_refusal (&v, &why) < 0)
        sbx_log_error (g, why.msg);
      sbx_fence_verdict_free (&v);
    }
  return all ? 0 : FENCE_DENIED;
}

static int
parse_access (const char *arg, enum sbx_fence_access *out,
              struct sbx_error *err)
{
  for (int a = SBX_FENCE_READ; a <= SBX_FENCE_ERASE; a++)
    if (strcmp (arg, sbx_fence_access_name (a)) == 0)
      {
        *out = a;
        return 0;
      }
  return sbx_fail (err, -EINVAL,
                   "fence --access: expected read, write or remove, not "
                   "\"%s\"",
                   arg);
}

static int
parse_options (int argc, char **argv, struct fence_cli *c,
               struct sbx_error *err)
{
  static const struct option longopts[] = {
    { "config", required_argument, NULL, 'c' },
    { "ceiling", required_argument, NULL, 'C' },
    { "access", required_argument, NULL, 'a' },
    { "verdict-fd", required_argument, NULL, 'v' },
    { "max-bytes", required_argument, NULL, 'm' },
    { "mode", required_argument, NULL, 'M' },
    { NULL, 0, NULL, 0 },
  };
  unsigned long long n = 0;
  int opt, r = 0;
  while (r == 0 && (opt = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    switch (opt)
      {
      case 'c':
        c->opts.config = optarg;
        break;
      case 'C':
        c->opts.ceiling = optarg;
        break;
      case 'a':
        r = parse_access (optarg, &c->access, err);
        break;
      case 'v':
        r = sbx_parse_number ("--verdict-fd", optarg, 0, 1 << 20, &n, err);
        c->verdict_fd = (int) n;
        break;
      case 'm':
        r = sbx_parse_number ("--max-bytes", optarg, 0, SIZE_MAX / 4, &n, err);
        c->max_bytes = (size_t) n;
        break;
      case 'M':
        if (sscanf (optarg, "%llo", &n) != 1 || n > 07777)
          r = sbx_fail (err, -EINVAL,
                        "fence --mode: expected octal, like 755");
        c->mode = (mode_t) n;
        break;
      default:
        r = sbx_fail (err, -EINVAL,
                      "fence: unknown option (see docs/fence.md)");
      }
  return r;
}

/* How many paths OP takes: -1 any number (at least one).  */
static int
op_arity (const char *op)
{
  static const char *const ops[]
      = { "check",  "read",   "write", "append", "mkdir",
          "remove", "rename", "stat",  "list" };
  static const int arity[] = { -1, 1, 1, 1, -1, -1, 2, 1, 1 };
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (strcmp (op, ops[i]) == 0)
      return arity[i];
  return 0;
}

int
sbx_cmd_fence (struct sbx_context *g, int argc, char **argv,
               struct sbx_error *err)
{
  struct fence_cli c = {
    .opts = { .ceiling = g->ceiling,
              .approve = g->approve,
              .runner = g->runner,
              .root = g->root },
    .access = SBX_FENCE_WRITE,
    .verdict_fd = -1,
    .max_bytes = 64u << 20,
    .mode = 0777,
  };
  const char *op = argc > 1 ? argv[1] : "";
  int arity = op_arity (op);
  if (arity == 0)
    return sbx_fail (err, -EINVAL,
                     "fence: expected an operation: check, read, write, "
                     "append, mkdir, remove, rename, stat or list");
  int r = parse_options (argc - 1, argv + 1, &c, err);
  int n = argc - 1 - optind;
  char **paths = argv + 1 + optind;
  if (r == 0 && (arity > 0 ? n != arity : n < 1))
    r = sbx_fail (err, -EINVAL, "fence %s: expected %s", op,
                  arity == 2   ? "FROM TO"
                  : arity == 1 ? "one PATH"
                               : "PATH...");
  cleanup_fence struct sbx_fence *f = NULL;
  if (r == 0)
    r = sbx_fence_open (&c.opts, &f, err);
  if (r < 0)
    {
      /* The config refused (by the ceiling, say): a client learns it on
         the descriptor as well.  */
      report (&c, n > 0 ? paths[0] : "", NULL, err);
      return r;
    }
  if (strcmp (op, "check") == 0)
    return check_paths (g, &c, f, paths, n, err);
  bool denied = false;
  for (int i = 0; r == 0 && i < (arity == 2 ? 1 : n); i++)
    {
      struct sbx_fence_verdict v = { 0 };
      r = one_op (&c, f, op, paths[i], arity == 2 ? paths[1] : NULL, &v, err);
      if (r < 0)
        report (&c, paths[i], &v, err);
      denied = v.path != NULL; /* a refusal, not the system's EACCES */
      sbx_fence_verdict_free (&v);
    }
  if (denied)
    {
      sbx_log_error (g, err->msg);
      return FENCE_DENIED;
    }
  return r;
}
