/* Lexical path helpers: they look only at the text, never at the file
   system, so they are pure and safe to use on paths of another mount
   namespace.  Symlinks are NOT resolved: "/a/link/.." becomes "/a".  */
#ifndef SBX_PATH_H
#define SBX_PATH_H

#include <stdbool.h>

/* Collapse repeated slashes, "." and ".." components and a trailing slash.
   ".." at the root stays at the root ("/a/../.." -> "/").  A relative path
   stays relative and keeps leading ".." components ("a/../../b" -> "../b");
   an empty result is ".".  Returns a new string, or NULL on ENOMEM.  */
char *sbx_path_normalize (const char *path);

/* REL when it is absolute, else BASE/REL; normalized either way.  Returns a
   new string, or NULL on ENOMEM.  */
char *sbx_path_join (const char *base, const char *rel);

/* PATH equals ROOT or lies below it.  Both must be normalized absolute
   paths; "/a/bc" is not under "/a/b".  */
bool sbx_path_is_under (const char *path, const char *root);

#endif
