/* Whole-file reads and crash-safe whole-file writes.  */
#ifndef SBX_FILE_IO_H
#define SBX_FILE_IO_H

#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

/* Read PATH (at most MAX bytes) into a NUL-terminated buffer.  -ENOENT is
   returned without touching ERR so callers can treat absence as a fact.  */
int sbx_read_file (const char *path, size_t max, char **out, size_t *len,
                   struct sbx_error *err);

/* Write DATA to PATH atomically: a temporary file in the same directory,
   fsync'd, then renamed over PATH.  Readers see the old or the new content,
   never a half-written file.  */
int sbx_write_file_atomic (const char *path, const void *data, size_t len,
                           mode_t mode, struct sbx_error *err);

#endif
