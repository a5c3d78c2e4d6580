#include "spec/spec_call.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/path.h"

/* As config.json's own cap (spec_load.c).  */
#define POLICY_MAX_BYTES (16u << 20)

static int
read_stdin (char **out, size_t *len, struct sbx_error *err)
{
  size_t cap = 8192, n = 0;
  cleanup_free char *buf = malloc (cap);
  for (;;)
    {
      if (buf == NULL)
        return sbx_fail (err, -ENOMEM, "out of memory");
      if (n == cap)
        {
          if (cap >= POLICY_MAX_BYTES)
            return sbx_fail (err, -EFBIG, "--policy -: larger than 16 MiB");
          char *bigger = realloc (buf, cap *= 2);
          if (bigger == NULL)
            return sbx_fail (err, -ENOMEM, "out of memory");
          buf = bigger;
        }
      ssize_t got = read (STDIN_FILENO, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return sbx_fail_errno (err, -errno, "--policy -: cannot read stdin");
      if (got == 0)
        break;
      n += (size_t) got;
    }
  *out = steal_pointer (&buf);
  *len = n;
  return 0;
}

/* The policy's directory, absolute: what relative paths in it mean.  */
static char *
policy_dir (const char *policy)
{
  cleanup_free char *cwd = getcwd (NULL, 0);
  if (cwd == NULL)
    return NULL;
  if (strcmp (policy, "-") == 0)
    return steal_pointer (&cwd);
  cleanup_free char *abs = sbx_path_join (cwd, policy);
  char *slash = abs ? strrchr (abs, '/') : NULL;
  if (slash == NULL)
    return NULL;
  *slash = '\0';
  return strdup (abs[0] ? abs : "/");
}

static int
load_policy (const char *policy, struct sbx_spec **out, struct sbx_error *err)
{
  cleanup_free char *dir = policy_dir (policy);
  if (dir == NULL)
    return sbx_fail_errno (err, errno ? -errno : -ENOMEM,
                           "--policy %s: cannot find its directory", policy);
  char *text = NULL;
  size_t len = 0;
  bool from_stdin = strcmp (policy, "-") == 0;
  int r = from_stdin ? read_stdin (&text, &len, err)
                     : sbx_read_regular_file (policy, POLICY_MAX_BYTES, &text,
                                              &len, err);
  if (r == -ENOENT)
    return sbx_fail (err, r, "--policy %s: does not exist", policy);
  if (r < 0)
    return r;
  r = sbx_spec_parse (text, len, dir, out, err);
  if (r < 0)
    {
      free (text);
      return sbx_error_prefix (err, "--policy %s", policy);
    }
  (*out)->text = text;
  (*out)->text_len = len;
  return 0;
}

/* NAME=VALUE over ENV: an entry of the same name is replaced.  */
static int
set_env (struct strv *env, const char *entry, struct sbx_error *err)
{
  const char *eq = strchr (entry, '=');
  if (eq == NULL || eq == entry)
    return sbx_fail_usage (err, "--env %.64s: expected NAME=VALUE", entry);
  size_t klen = (size_t) (eq - entry) + 1;
  char *copy = strdup (entry);
  if (copy == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 0; i < env->n; i++)
    if (strncmp (env->v[i], entry, klen) == 0)
      {
        free (env->v[i]);
        env->v[i] = copy;
        return 0;
      }
  return strv_push_owned (env, copy) < 0
             ? sbx_fail (err, -ENOMEM, "out of memory")
             : 0;
}

/* The field is set now, whatever the file held: a ceiling's allow-list
   sees it as it sees the file's own (spec_fields.c).  */
static int
note_field (struct sbx_spec *spec, const char *path, struct sbx_error *err)
{
  if (strv_contains (&spec->fields, path)
      || strv_push (&spec->fields, path) == 0)
    return 0;
  return sbx_fail (err, -ENOMEM, "out of memory");
}

static int
apply_argv (struct sbx_spec *spec, char *const *argv, struct sbx_error *err)
{
  struct strv args = { 0 };
  for (size_t i = 0; argv[i]; i++)
    if (strv_push (&args, argv[i]) < 0)
      {
        strv_free (&args);
        return sbx_fail (err, -ENOMEM, "out of memory");
      }
  strv_free (&spec->process.args);
  spec->process.args = args;
  return note_field (spec, "process.args", err);
}

static int
apply_cwd (struct sbx_spec *spec, const char *cwd, struct sbx_error *err)
{
  if (cwd[0] != '/')
    return sbx_fail_usage (err, "--cwd %.64s: expected an absolute directory",
                           cwd);
  char *copy = sbx_path_normalize (cwd);
  if (copy == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  free (spec->process.cwd);
  spec->process.cwd = copy;
  return note_field (spec, "process.cwd", err);
}

int
sbx_spec_apply_call (struct sbx_spec *spec,
                     const struct sbx_config_source *src,
                     struct sbx_error *err)
{
  bool any
      = (src->argv && src->argv[0]) || (src->env && src->env->n) || src->cwd;
  if (!any)
    return 0;
  if (!spec->has_process)
    return sbx_refuse (err, -EINVAL, "process",
                       "the config has none, and a call needs its "
                       "user and environment (sbx-oci spec --agent writes "
                       "one)");
  int r = 0;
  if (src->argv && src->argv[0])
    r = apply_argv (spec, src->argv, err);
  for (size_t i = 0; r == 0 && src->env && i < src->env->n; i++)
    r = set_env (&spec->process.env, src->env->v[i], err);
  if (r == 0 && src->env && src->env->n)
    r = note_field (spec, "process.env", err);
  if (r == 0 && src->cwd)
    r = apply_cwd (spec, src->cwd, err);
  return r;
}

int
sbx_spec_load_source (const struct sbx_config_source *src,
                      struct sbx_spec **out, struct sbx_error *err)
{
  int r = src->policy ? load_policy (src->policy, out, err)
                      : sbx_spec_load (src->bundle, out, err);
  if (r == 0)
    r = sbx_spec_apply_call (*out, src, err);
  if (r < 0)
    {
      sbx_spec_free (*out);
      *out = NULL;
    }
  return r;
}
