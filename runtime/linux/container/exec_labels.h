/* The labels a security module gives a process at its next exec: written
   to the calling thread's exec attribute, so that they take effect at
   execve and not before, as runc and crun set them.  Used by sbx-oci-init
   (a container's command) and by exec (a process joining a container).
   Only system calls: it runs in a forked child and in the static init.  */
#ifndef SBX_EXEC_LABELS_H
#define SBX_EXEC_LABELS_H

/* SELINUX: an SELinux context for the next exec; APPARMOR: an AppArmor
   profile for it; either NULL for none.  PROC_FD: a descriptor of the
   procfs to write through (exec passes the host's, opened before it
   joined the container, whose own /proc the container may have covered),
   or -1 for "/proc".  Whatever is opened must lie on a procfs, or the
   label would go to a file of the container's making and the process
   run unlabelled.  0, or -errno of the first write that failed (with
   *WHICH its field: "process.selinuxLabel" or "process.apparmorProfile"). */
int sbx_exec_labels (int proc_fd, const char *selinux, const char *apparmor,
                     const char **which);

#endif
