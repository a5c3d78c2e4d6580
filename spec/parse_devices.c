/* linux.devices: the nodes a container gets besides its minimal /dev
   (policy/devices.c decides how each gets there).  */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/path.h"
#include "spec/parse_sections.h"

/* "u" is an unbuffered character device: the kernel knows no such thing,
   and runc makes it as "c".  */
static const struct jenum node_types[] = {
  { "c", 'c' },
  { "b", 'b' },
  { "u", 'c' },
  { "p", 'p' },
};

/* The largest numbers a dev_t of the kernel holds (MINORBITS 20): a
   larger one would make a node of other numbers than the config's.  */
#define MAJOR_MAX 4095u
#define MINOR_MAX 1048575u

/* Whether PATH has a ".." component.  */
static bool
has_dotdot (const char *path)
{
  for (const char *p = path; (p = strstr (p, "..")) != NULL; p += 2)
    if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
      return true;
  return false;
}

/* PATH: absolute, no "..", normalized; another entry's is refused.  */
static int
parse_node_path (struct sbx_jctx *c, yajl_val obj, struct sbx_device *all,
                 size_t i)
{
  char *raw = NULL;
  int r = json_abs_path (c, obj, "path", JSON_REQUIRED, &raw);
  if (r < 0)
    return r;
  size_t mark = jpath_push_key (c, "path");
  if (has_dotdot (raw))
    r = jfail (c, "expected a path without \"..\" components");
  else if ((all[i].path = sbx_path_normalize (raw)) == NULL)
    r = jfail_nomem (c);
  free (raw);
  for (size_t j = 0; r >= 0 && j < i; j++)
    if (strcmp (all[j].path, all[i].path) == 0)
      r = jfail (c, "duplicate \"%s\"", all[i].path);
  if (r >= 0)
    jpath_pop (c, mark);
  return r;
}

/* MAJOR or MINOR: required for a 'c' or 'b' node; a FIFO has none (0,
   whatever the config says, as the kernel makes it).  */
static int
parse_number (struct sbx_jctx *c, yajl_val obj, const char *key,
              const char *type, uint32_t max, uint32_t *out)
{
  int r = json_u32 (c, obj, key, 0, 0, max, out);
  if (strcmp (type, "p") == 0)
    *out = 0;
  if (r != 0 || strcmp (type, "p") == 0)
    return r < 0 ? r : 0;
  jpath_push_key (c, key);
  return jfail (c, "required for a \"%s\" device", type);
}

/* FILEMODE: the permission bits, and maybe the node's format too, as
   podman passes the host node's st_mode: it must then be the type's.  */
static int
parse_file_mode (struct sbx_jctx *c, yajl_val obj, struct sbx_device *d)
{
  uint32_t mode = d->file_mode;
  int r = json_u32 (c, obj, "fileMode", 0, 0, S_IFMT | 07777, &mode);
  if (r <= 0)
    return r;
  mode_t format = d->type == 'b'   ? S_IFBLK
                  : d->type == 'p' ? S_IFIFO
                                   : S_IFCHR;
  if ((mode & S_IFMT) != 0 && (mode & S_IFMT) != format)
    {
      jpath_push_key (c, "fileMode");
      return jfail (c,
                    "its format bits (0%o) are not those of a \"%c\" "
                    "node",
                    (unsigned) (mode & S_IFMT), d->type);
    }
  d->file_mode = mode & 07777;
  return 0;
}

static int
parse_device (struct sbx_jctx *c, yajl_val obj, void *items, size_t i)
{
  struct sbx_device *d = (struct sbx_device *) items + i;
  int type = 0;
  d->file_mode = 0666;
  int r = parse_node_path (c, obj, items, i);
  if (r >= 0)
    r = json_enum (c, obj, "type", JSON_REQUIRED, node_types,
                   sizeof node_types / sizeof *node_types, &type);
  d->type = (char) type;
  const char name[2] = { d->type, '\0' };
  if (r >= 0)
    r = parse_number (c, obj, "major", name, MAJOR_MAX, &d->major);
  if (r >= 0)
    r = parse_number (c, obj, "minor", name, MINOR_MAX, &d->minor);
  if (r >= 0)
    r = parse_file_mode (c, obj, d);
  if (r >= 0)
    r = json_u32 (c, obj, "uid", 0, 0, UINT32_MAX, &d->uid);
  if (r >= 0)
    r = json_u32 (c, obj, "gid", 0, 0, UINT32_MAX, &d->gid);
  return r < 0 ? r : 0;
}

int
sbx_parse_devices (struct sbx_jctx *c, yajl_val obj, struct sbx_linux *lx)
{
  void *devices = NULL;
  int r = json_object_array (c, obj, "devices", 0, sizeof *lx->devices,
                             parse_device, &devices, &lx->n_devices);
  lx->devices = devices;
  return r < 0 ? r : 0;
}
