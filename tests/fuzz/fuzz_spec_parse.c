/* libFuzzer harness for sbx_spec_parse.  Beyond memory errors (ASan) and
   undefined behaviour (UBSan), it checks what every parse promises: a
   success satisfies the model's invariants, a failure leaves no spec and a
   one-line, printable message.  A broken promise aborts, which the fuzzer
   reports like a crash.  */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "spec/spec.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
require (bool cond)
{
  if (!cond)
    abort ();
}

static bool
is_normalized_absolute (const char *p)
{
  char *n = sbx_path_normalize (p);
  bool same = n && p[0] == '/' && strcmp (n, p) == 0;
  free (n);
  return same;
}

static void
check_ext (const struct sbx_ext *e)
{
  require (e->alias_max_entries >= 1);
  require (e->alias_max_depth >= 1 && e->alias_max_depth <= 64);
  require (e->sample_interval_ms >= 1 && e->sample_interval_ms <= 60000);
  require (e->mode != SBX_MODE_WORKSPACE_WRITE || e->workspace != NULL);
  require (e->workspace == NULL || is_normalized_absolute (e->workspace));
  for (size_t i = 0; i < e->writable_roots.n; i++)
    require (is_normalized_absolute (e->writable_roots.v[i]));
  for (size_t i = 0; i < e->temp_roots.n; i++)
    require (is_normalized_absolute (e->temp_roots.v[i]));
  for (size_t i = 0; i < e->protected_paths.n; i++)
    {
      const char *p = e->protected_paths.v[i];
      require (p[0] != '/' && strcmp (p, ".") != 0);
      require (strncmp (p, "../", 3) != 0 && strcmp (p, "..") != 0);
      require (strstr (p, "/../") == NULL);
    }
  for (size_t i = 0; i < e->env_allow.n; i++)
    require (e->env_allow.v[i][0] && !strchr (e->env_allow.v[i], '='));
}

static void
check_spec (const struct sbx_spec *s)
{
  require (s->oci_version && s->bundle && s->root_path);
  require (is_normalized_absolute (s->root_path));
  for (size_t i = 0; i < s->n_mounts; i++)
    require (s->mounts[i].destination[0] == '/');
  if (s->has_process)
    {
      require (s->process.args.n > 0 && s->process.cwd[0] == '/');
      require (s->process.oom_score_adj >= -1000
               && s->process.oom_score_adj <= 1000);
      require (s->process.user.umask <= 07777);
      for (size_t i = 0; i < s->process.n_rlimits; i++)
        require (s->process.rlimits[i].soft <= s->process.rlimits[i].hard);
    }
  for (size_t i = 0; i < s->linux_.n_namespaces; i++)
    require (s->linux_.namespaces[i].type < SBX_NS_COUNT);
  check_ext (&s->ext);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct sbx_error err = { 0 };
  struct sbx_spec *spec = NULL;
  int r = sbx_spec_parse ((const char *) data, size, "/bundle", &spec, &err);
  if (r == 0)
    check_spec (spec);
  else
    {
      require (r < 0 && spec == NULL && err.code == r && err.msg[0]);
      for (const char *p = err.msg; *p; p++)
        require ((unsigned char) *p >= 0x20 && *p != 0x7f);
    }
  sbx_spec_free (spec);
  return 0;
}
