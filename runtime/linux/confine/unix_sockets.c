#include "runtime/linux/confine/unix_sockets.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* /proc/net/unix: "Num RefCount Protocol Flags Type St Inode Path".  */
#define SO_ACCEPTCON_FLAG 0x10000u /* __SO_ACCEPTCON: listening */
#define TYPE_DGRAM 2u

/* The path of LINE when it names a socket that others can reach, else
   NULL.  */
static const char *
reachable_path (char *line)
{
  /* Most of a host's sockets have no path (or an abstract name): only a
     line with a '/' is worth the sscanf, on hosts with thousands.  */
  if (strchr (line, '/') == NULL)
    return NULL;
  unsigned long refcount, protocol, flags, type, state, inode;
  int consumed = 0;
  if (sscanf (line, "%*[^:]: %lx %lx %lx %lx %lx %lu %n", &refcount, &protocol,
              &flags, &type, &state, &inode, &consumed)
          != 6
      || consumed == 0)
    return NULL;
  char *path = line + consumed;
  path[strcspn (path, "\n")] = '\0';
  if (path[0] != '/')
    return NULL;
  bool listening = (flags & SO_ACCEPTCON_FLAG) != 0;
  return listening || type == TYPE_DGRAM ? path : NULL;
}

int
sbx_unix_sockets_parse (FILE *f, struct strv *paths)
{
  char *line = NULL;
  size_t cap = 0;
  int r = 0;
  /* The first line is the header.  */
  bool header = true;
  while (r == 0 && paths->n < SBX_UNIX_SOCKETS_MAX
         && getline (&line, &cap, f) > 0)
    {
      const char *p = header ? NULL : reachable_path (line);
      header = false;
      if (p && !strv_contains (paths, p))
        r = strv_push (paths, p);
    }
  free (line);
  return r;
}

int
sbx_unix_sockets_listening (struct strv *paths)
{
  FILE *f = fopen ("/proc/net/unix", "re");
  if (f == NULL)
    return 0;
  int r = sbx_unix_sockets_parse (f, paths);
  fclose (f);
  return r;
}
