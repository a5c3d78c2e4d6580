/* File-descriptor hygiene: the runner gets exactly the descriptors sbx
   passes on purpose.  */
#ifndef SBX_FD_SCRUB_H
#define SBX_FD_SCRUB_H

/* Close every descriptor >= FIRST.  close_range(2) where the kernel has it,
   else a walk of /proc/self/fd.  Async-signal-safe enough for a child
   between fork and exec (no allocation).  Returns 0 or -errno.  */
int sbx_close_fds_from (int first);

#endif
