/* The host's path kinds for one planning, answered from a directory's
   listing once it has been asked about often.  A plan asks about some
   120 paths, most of them absent names in a few directories (the home's
   credential stores, /run/user/UID's sockets, a workspace's protected
   files), and an lstat each was a third of planning's system calls.  */
#ifndef SBX_PATH_LISTING_H
#define SBX_PATH_LISTING_H

#include "policy/host_facts.h"

struct sbx_path_listing;

struct sbx_path_listing *sbx_path_listing_new (void);
void sbx_path_listing_free (struct sbx_path_listing *l);

/* What sbx_host_path_kind says of PATH (lstat: the last component not
   followed), from LISTING's copy of the directory that holds it when
   that directory may be listed and searched; else from lstat.  */
enum sbx_path_kind sbx_listed_path_kind (const char *path, void *listing);

#endif
