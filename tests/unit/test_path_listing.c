/* sbx_listed_path_kind must say what sbx_host_path_kind (lstat) says of
   every path, whether its directory was listed yet or not: each path is
   asked about three times against one listing (the first question is an
   lstat, the later ones read the listing), and the answers compared.  */
#include "runtime/linux/bwrap/path_listing.h"
#include "runtime/host_paths.h"
#include "tests/unit/tap.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char top[] = "/tmp/sbx-listing-XXXXXX";

static void
make (const char *rel, char what)
{
  char p[512];
  snprintf (p, sizeof p, "%s/%s", top, rel);
  if (what == 'd')
    mkdir (p, 0755);
  else if (what == 'f')
    close (open (p, O_CREAT | O_WRONLY, 0644));
  else if (what == 'l')
    symlink ("f", p);
  else if (what == 'p')
    mkfifo (p, 0644);
  else if (what == 's')
    {
      struct sockaddr_un a = { .sun_family = AF_UNIX };
      snprintf (a.sun_path, sizeof a.sun_path, "%s", p);
      int fd = socket (AF_UNIX, SOCK_STREAM, 0);
      bind (fd, (struct sockaddr *) &a, sizeof a);
      close (fd);
    }
}

int
main (void)
{
  if (!tap_ok (mkdtemp (top) != NULL, "a scratch tree"))
    return tap_done ();
  make ("dir", 'd');
  make ("dir/f", 'f');
  make ("dir/d", 'd');
  make ("dir/l", 'l');
  make ("dir/p", 'p');
  make ("dir/s", 's');
  make ("file", 'f');
  make ("lnk", 'l'); /* a link to a file named f: there is none */
  const char *rels[] = {
    "dir/f",  "dir/d",  "dir/l",   "dir/p",  "dir/s",  "dir/none",
    "none/x", "file/x", "dir/.",   "dir/..", "dir/d/", "dir//f",
    "dir",    "lnk/x",  "dir/d/.", "",
  };
  struct sbx_path_listing *l = sbx_path_listing_new ();
  tap_ok (l != NULL, "a listing");
  for (int round = 1; round <= 3; round++)
    for (size_t i = 0; i < sizeof rels / sizeof *rels; i++)
      {
        char p[512];
        snprintf (p, sizeof p, "%s/%s", top, rels[i]);
        enum sbx_path_kind want = sbx_host_path_kind (p, NULL);
        enum sbx_path_kind got = sbx_listed_path_kind (p, l);
        tap_ok (got == want, "question %d about %s: %d, as lstat says (%d)",
                round, rels[i][0] ? rels[i] : "(the top)", (int) got,
                (int) want);
      }
  /* Paths that are not "absolute directory / name" go to lstat.  */
  tap_ok (sbx_listed_path_kind ("/", l) == sbx_host_path_kind ("/", NULL),
          "/ itself");
  tap_ok (sbx_listed_path_kind ("relative", l)
              == sbx_host_path_kind ("relative", NULL),
          "a relative path");
  /* A name created after its directory was listed is not seen: the
     listing is one planning's view, as a plan is one moment's.  */
  make ("dir/later", 'f');
  char later[512];
  snprintf (later, sizeof later, "%s/dir/later", top);
  tap_ok (sbx_listed_path_kind (later, l) == SBX_PATH_ABSENT,
          "a name made after the listing is not in it");
  sbx_path_listing_free (l);
  char cmd[600];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", top);
  tap_ok (system (cmd) == 0, "scratch tree removed");
  return tap_done ();
}
