/* Test helper: a fake path resolver standing in for realpath(3) on a Mac.
   It knows one symlinked directory, a list of paths that do not exist,
   and one directory it may not look into; everything else exists as named.  */
#ifndef SBX_TEST_SBPL_FAKE_PATHS_H
#define SBX_TEST_SBPL_FAKE_PATHS_H

#include "runtime/darwin/macos_paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_LINK "/Users/me/link"
#define FAKE_LINK_TARGET "/Volumes/data/ws"
#define FAKE_FORBIDDEN "/Users/me/forbidden"
#define FAKE_DOCKER_TARGET "/Users/me/.docker/run/docker.sock"

static const char *const fake_missing[] = {
  "/Users/me/link/.git/hooks",
  "/Users/me/link/.git",
  "/Users/me/ws/.git/hooks",
  "/tmp/sbx-new",
  NULL,
};

static int
fake_resolve (void *ctx, const char *path, char **out)
{
  (*(int *) ctx)++;
  for (size_t i = 0; fake_missing[i]; i++)
    if (strcmp (path, fake_missing[i]) == 0)
      return -ENOENT;
  size_t n = strlen (FAKE_FORBIDDEN);
  if (strncmp (path, FAKE_FORBIDDEN, n) == 0
      && (path[n] == '\0' || path[n] == '/'))
    return -EACCES;
  /* Docker Desktop's /var/run/docker.sock is a symlink into the home.  */
  if (strcmp (path, "/var/run/docker.sock") == 0)
    {
      *out = strdup (FAKE_DOCKER_TARGET);
      return *out ? 0 : -ENOMEM;
    }
  n = strlen (FAKE_LINK);
  if (strncmp (path, FAKE_LINK, n) == 0 && (path[n] == '\0' || path[n] == '/'))
    {
      if (asprintf (out, "%s%s", FAKE_LINK_TARGET, path + n) < 0)
        return -ENOMEM;
      return 0;
    }
  *out = strdup (path);
  return *out ? 0 : -ENOMEM;
}

#endif
