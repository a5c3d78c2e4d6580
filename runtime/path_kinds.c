#include "runtime/path_kinds.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/host_paths.h"

/* 16 bytes, so that the first table is one page.  */
struct sbx_path_seen
{
  char *path; /* NULL: a free slot */
  uint32_t hash;
  uint16_t len;
  uint8_t kind; /* an enum sbx_path_kind */
};

enum
{
  FIRST_CAP = 256 /* a plan's questions, with room */
};

/* FNV-1a, one byte at a time, so that each ancestor's hash is on the
   way to the whole path's.  */
static uint32_t
hash_step (uint32_t h, unsigned char c)
{
  return (h ^ c) * 16777619u;
}

static const uint32_t HASH_START = 2166136261u;

static struct sbx_path_seen *
find (const struct sbx_path_kinds *k, const char *path, size_t len,
      uint32_t hash)
{
  for (size_t i = hash & (k->cap - 1);; i = (i + 1) & (k->cap - 1))
    {
      struct sbx_path_seen *s = &k->slot[i];
      if (s->path == NULL
          || (s->hash == hash && s->len == len
              && memcmp (s->path, path, len) == 0))
        return s;
    }
}

static int
grow (struct sbx_path_kinds *k)
{
  size_t cap = k->cap ? k->cap * 2 : FIRST_CAP;
  struct sbx_path_kinds bigger
      = { calloc (cap, sizeof *bigger.slot), k->n, cap };
  if (bigger.slot == NULL)
    return -1;
  for (size_t i = 0; i < k->cap; i++)
    if (k->slot[i].path)
      *find (&bigger, k->slot[i].path, k->slot[i].len, k->slot[i].hash)
          = k->slot[i];
  free (k->slot);
  *k = bigger;
  return 0;
}

/* Whether an ancestor of PATH was seen where PATH cannot be below it;
 *HASH is PATH's own hash on return.  */
static bool
below_a_dead_end (const struct sbx_path_kinds *k, const char *path,
                  uint32_t *hash)
{
  uint32_t h = HASH_START;
  bool dead = false;
  for (size_t i = 0; path[i]; i++)
    {
      if (path[i] == '/' && i > 0 && k->cap > 0 && !dead)
        {
          const struct sbx_path_seen *s = find (k, path, i, h);
          dead = s->path && s->kind != SBX_PATH_DIR
                 && s->kind != SBX_PATH_SYMLINK;
        }
      h = hash_step (h, (unsigned char) path[i]);
    }
  *hash = h;
  return dead;
}

enum sbx_path_kind
sbx_path_kinds_ask (const char *path, void *kinds)
{
  struct sbx_path_kinds *k = kinds;
  uint32_t hash;
  if (below_a_dead_end (k, path, &hash))
    return SBX_PATH_ABSENT;
  size_t len = strlen (path);
  struct sbx_path_seen *s = k->cap ? find (k, path, len, hash) : NULL;
  if (s && s->path)
    return (enum sbx_path_kind) s->kind;
  errno = 0;
  enum sbx_path_kind kind = sbx_host_path_kind (path, NULL);
  /* Only a path the host says is not there is kept as absent: an error
     of the moment (EIO on a network file system, ENOMEM) would otherwise
     stand for the whole plan, and for every path below (review).  */
  bool sure = kind != SBX_PATH_ABSENT || errno == ENOENT || errno == ENOTDIR;
  /* Kept at most three quarters full, so that find always ends; a path
     that cannot be kept (or is longer than any a plan holds) is asked
     again next time, no more.  */
  if (!sure || len > UINT16_MAX)
    return kind;
  if ((k->n + 1) * 4 > k->cap * 3)
    {
      if (grow (k) < 0)
        return kind;
      s = find (k, path, len, hash);
    }
  char *copy = strdup (path);
  if (copy)
    {
      *s = (struct sbx_path_seen){ copy, hash, (uint16_t) len,
                                   (uint8_t) kind };
      k->n++;
    }
  return kind;
}

void
sbx_path_kinds_free (struct sbx_path_kinds *k)
{
  for (size_t i = 0; i < k->cap; i++)
    free (k->slot[i].path);
  free (k->slot);
  *k = (struct sbx_path_kinds){ 0 };
}
