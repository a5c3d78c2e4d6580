/* The command's exec, searched for as glibc's execvp does it, whichever
   C library sbx-oci is built with (musl's differs: no shell for a file
   without a magic number, another default PATH), so that `exec` and the
   no-namespace rung find and run what bwrap's execvp finds and runs for
   `run` and `create`.  */
#ifndef SBX_EXEC_SEARCH_H
#define SBX_EXEC_SEARCH_H

/* execve of ARGV[0], searched for in this process's PATH ("/bin:/usr/bin"
   when unset; an empty entry is the current directory) unless it names a
   slash; a file the kernel cannot execute (ENOEXEC) is run by /bin/sh.
   Returns only on failure, errno set (EACCES when a file was found but
   none could be run).  Safe in a child sharing its parent's memory: it
   allocates nothing.  */
void sbx_exec_search (char *const argv[], char *const envp[]);

#endif
