/* sbx_spec_load: BUNDLE/config.json from disk, then sbx_spec_parse;
   sbx_spec_load_config: a config file by its own name (the fence's).  */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/path.h"
#include "common/utf8.h"
#include "spec/spec.h"

/* Real configs are a few KiB; the cap keeps a wrong --bundle (a disk
   image or a log named config.json) from eating memory.  */
#define CONFIG_MAX_BYTES (16u << 20)

/* BUNDLE made absolute, as OPTION named it.  */
static int
absolute_bundle (const char *option, const char *bundle, char **out,
                 struct sbx_error *err)
{
  if (bundle[0] == '/')
    *out = sbx_path_normalize (bundle);
  else
    {
      /* Lexical, as runc's filepath.Abs: the bundle is what was named.  */
      cleanup_free char *cwd = getcwd (NULL, 0);
      if (cwd == NULL)
        return sbx_fail_errno (err, -errno, "cannot make bundle %s absolute",
                               bundle);
      *out = sbx_path_join (cwd, bundle);
    }
  if (*out == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  /* The OCI state names the bundle, and hooks find it by that name: in
     JSON, which cannot carry a byte that is not UTF-8.  A failure, as
     for a bundle that is not there (125).  */
  if (!sbx_utf8_valid (*out))
    return sbx_fail (err, -EILSEQ,
                     "%s: %s is not valid UTF-8, which the container's "
                     "state (JSON) cannot name",
                     option, *out);
  return 0;
}

static int
load_file (const char *path, const char *dir, struct sbx_spec **out,
           struct sbx_error *err)
{
  char *text = NULL;
  size_t len = 0;
  int r = sbx_read_regular_file (path, CONFIG_MAX_BYTES, &text, &len, err);
  if (r == -ENOENT)
    return sbx_fail (err, r, "%s: does not exist (check --bundle)", path);
  if (r < 0)
    return r;
  r = sbx_spec_parse (text, len, dir, out, err);
  if (r < 0)
    {
      free (text);
      return sbx_error_prefix (err, "%s", path);
    }
  (*out)->text = text;
  (*out)->text_len = len;
  return 0;
}

int
sbx_spec_load (const char *bundle, struct sbx_spec **out,
               struct sbx_error *err)
{
  *out = NULL;
  cleanup_free char *dir = NULL;
  int r = absolute_bundle ("--bundle", bundle, &dir, err);
  if (r < 0)
    return r;
  cleanup_free char *path = sbx_path_join (dir, "config.json");
  if (path == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  return load_file (path, dir, out, err);
}

int
sbx_spec_load_config (const char *config, struct sbx_spec **out,
                      struct sbx_error *err)
{
  *out = NULL;
  cleanup_free char *path = NULL;
  int r = absolute_bundle ("--config", config, &path, err);
  if (r < 0)
    return r;
  /* The file's directory is its bundle: relative root.path and mount
     sources are resolved against it, as for BUNDLE/config.json.  */
  cleanup_free char *dir = sbx_path_join (path, "..");
  if (dir == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  r = load_file (path, dir, out, err);
  if (r == -ENOENT)
    {
      sbx_error_clear (err);
      return sbx_fail (err, r, "%s: does not exist (check --config)", path);
    }
  return r;
}
