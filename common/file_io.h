/* Whole-file reads, crash-safe whole-file writes, and writes to the
   kernel's control files.  */
#ifndef SBX_FILE_IO_H
#define SBX_FILE_IO_H

#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

/* Read PATH to its end (at most MAX bytes) into a NUL-terminated buffer,
   whatever its size says: procfs and cgroupfs files say 0.  -ENOENT (also
   for a path through a file) is returned without touching ERR, so callers
   can treat absence as a fact.  */
int sbx_read_file (const char *path, size_t max, char **out, size_t *len,
                   struct sbx_error *err);

/* sbx_read_file for a path a user named: anything but a regular file (a
   FIFO, a device, a directory) is refused as "PATH: not a regular file"
   before a byte is read, so the read never waits for a writer nor goes
   on forever.  */
int sbx_read_regular_file (const char *path, size_t max, char **out,
                           size_t *len, struct sbx_error *err);

/* sbx_read_regular_file for NAME in the directory DIRFD, a symlink
   refused as not a regular file (O_NOFOLLOW); errors name SHOWN.  */
int sbx_read_file_at (int dirfd, const char *name, const char *shown,
                      size_t max, char **out, size_t *len,
                      struct sbx_error *err);

/* Write DATA to PATH atomically: a temporary file in the same directory,
   fsync'd, then renamed over PATH.  Readers see the old or the new content,
   never a half-written file.  The temporary name is random and made with
   O_EXCL|O_NOFOLLOW through the directory's fd: someone who can write the
   directory cannot redirect the write by planting a symlink; PATH itself,
   even a symlink, is replaced, never followed.  */
int sbx_write_file_atomic (const char *path, const void *data, size_t len,
                           mode_t mode, struct sbx_error *err);

/* A file to be written later, its directory opened now: a sandbox that
   can write a directory on PATH (a workspace holding the operator's
   --outcome or --pid-file) and swaps it for a symlink while it runs
   cannot move the write.  PATH is the caller's; NAME points into it.  */
struct sbx_file_dest
{
  const char *path; /* NULL: no file */
  const char *name;
  int dirfd; /* -1 until opened */
};

/* Open PATH's directory into D (PATH NULL: D is no file, and 0).  */
int sbx_file_dest_open (const char *path, struct sbx_file_dest *d,
                        struct sbx_error *err);

/* sbx_write_file_atomic into D; a no-op for no file.  */
int sbx_file_dest_write (const struct sbx_file_dest *d, const void *data,
                         size_t len, mode_t mode, struct sbx_error *err);

void sbx_file_dest_close (struct sbx_file_dest *d);

/* The same for NAME in the directory DIRFD; errors name SHOWN.  */
int sbx_write_file_atomic_at (int dirfd, const char *name, const char *shown,
                              const void *data, size_t len, mode_t mode,
                              struct sbx_error *err);

/* Write TEXT to the kernel control file PATH (procfs, cgroupfs) in one
   write(2): such files act on each write, so a value split in two would
   be taken as two values, or refused.  Never creates PATH: a missing
   control file means the kernel has no such knob, and a plain file of
   that name would only pretend it had.  Returns 0 or a negative errno, a
   short write being -EIO.

   Safe in a child made by clone (CLONE_VM | CLONE_VFORK), which shares
   its parent's memory: it calls only open, write and close, allocates
   nothing and touches no state but errno.  Keep it so.  */
int sbx_write_control_file (const char *path, const char *text);

#endif
