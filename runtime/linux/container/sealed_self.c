/* Why a sealed memfd copy rather than the alternatives runc has used:
   a read-only bind mount of the binary needs a mount namespace of our
   own (and privileges an unprivileged caller lacks), and an overlayfs
   copy-up needs the same.  The copy costs one sendfile of the binary's
   loaded part and one more start of sbx-oci (about 1 ms here,
   tests/bench/exec_bench.sh), which is why `exec` pays it only where no
   Landlock helper execs the command (exec_join.c).  */
#include "runtime/linux/container/sealed_self.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

#if __SIZEOF_POINTER__ == 8
#define ELFCLASSNATIVE ELFCLASS64
#else
#define ELFCLASSNATIVE ELFCLASS32
#endif

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U /* Linux 6.3: exempt from vm.memfd_noexec=1 */
#endif

enum
{
  ALL_SEALS = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE
};

extern char **environ;

static int
make_memfd (void)
{
  int fd
      = memfd_create ("sbx-oci", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
  if (fd < 0 && errno == EINVAL) /* a kernel without MFD_EXEC */
    fd = memfd_create ("sbx-oci", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  return fd;
}

/* How much of the ELF file SELF (SIZE bytes) exec reads: its headers and
   every segment, up to the end of the last.  What follows (section
   headers, symbols, debug information: half of a debugoptimized build)
   is not copied, which halves the copy's cost.  SIZE when the file is
   not a native ELF file whose headers can be read.  */
static off_t
exec_extent (int self, off_t size)
{
  ElfW (Ehdr) eh;
  if (pread (self, &eh, sizeof eh, 0) != (ssize_t) sizeof eh
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != ELFCLASSNATIVE
      || eh.e_phentsize != sizeof (ElfW (Phdr)) || eh.e_phnum == 0)
    return size;
  off_t end
      = (off_t) (eh.e_phoff + (ElfW (Off)) eh.e_phnum * sizeof (ElfW (Phdr)));
  for (unsigned i = 0; i < eh.e_phnum; i++)
    {
      ElfW (Phdr) ph;
      if (pread (self, &ph, sizeof ph, (off_t) (eh.e_phoff + i * sizeof ph))
          != (ssize_t) sizeof ph)
        return size;
      if ((off_t) (ph.p_offset + ph.p_filesz) > end)
        end = (off_t) (ph.p_offset + ph.p_filesz);
    }
  return end > 0 && end <= size ? end : size;
}

int
sbx_sealed_copy (int self)
{
  struct stat st;
  if (fstat (self, &st) < 0)
    return -errno;
  off_t len = exec_extent (self, st.st_size);
  cleanup_close int fd = make_memfd ();
  if (fd < 0)
    return -errno;
  off_t off = 0;
  while (off < len)
    {
      ssize_t n = sendfile (fd, self, &off, (size_t) (len - off));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return n < 0 ? -errno : -EIO;
    }
  if (fcntl (fd, F_ADD_SEALS, ALL_SEALS) < 0)
    return -errno;
  return steal_fd (&fd);
}

/* The whole of /proc/self/cmdline into *BUF; its length, or -1.  */
static ssize_t
read_cmdline (char **buf)
{
  cleanup_close int fd = open ("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  size_t len = 0, cap = 0;
  *buf = NULL;
  if (fd < 0)
    return -1;
  for (;;)
    {
      if (len == cap)
        {
          char *grown = realloc (*buf, cap = cap ? 2 * cap : 4096);
          if (grown == NULL)
            return -1;
          *buf = grown;
        }
      ssize_t n = read (fd, *buf + len, cap - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        return (ssize_t) len;
      len += (size_t) n;
    }
}

/* This process's arguments, as main got them (a command's argv is only
   their tail): a NULL-terminated vector into *BUF, or NULL.  */
static char **
own_argv (char **buf)
{
  ssize_t len = read_cmdline (buf);
  if (len <= 0 || (*buf)[len - 1] != '\0')
    return NULL;
  size_t argc = 0;
  for (ssize_t i = 0; i < len; i++)
    argc += (*buf)[i] == '\0';
  char **argv = calloc (argc + 1, sizeof *argv);
  size_t k = 0;
  for (ssize_t i = 0; argv && i < len; i += (ssize_t) strlen (*buf + i) + 1)
    argv[k++] = *buf + i;
  return argv;
}

int
sbx_run_from_sealed_copy (struct sbx_error *err)
{
  cleanup_close int self = open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (self < 0)
    return sbx_fail_errno (err, -errno, "exec: cannot open /proc/self/exe");
  int seals = fcntl (self, F_GET_SEALS);
  if (seals >= 0 && (seals & ALL_SEALS) == ALL_SEALS)
    {
      /* The name exec gave it is "memfd:sbx-oci": keep `pgrep -x` and
         `ps` finding it by its own.  */
      prctl (PR_SET_NAME, "sbx-oci", 0, 0, 0);
      return 0;
    }
  cleanup_close int copy = sbx_sealed_copy (self);
  if (copy < 0)
    return sbx_fail_errno (err, copy,
                           "exec: cannot make a sealed copy of sbx-oci to "
                           "run from");
  cleanup_free char *buf = NULL;
  cleanup_free char **argv = own_argv (&buf);
  if (argv == NULL)
    return sbx_fail (err, -ENOMEM, "exec: cannot read /proc/self/cmdline");
  fexecve (copy, argv, environ);
  if (errno == EACCES)
    return sbx_fail (err, -EACCES,
                     "exec: cannot run the sealed copy of sbx-oci: this "
                     "host forbids executing memfds (vm.memfd_noexec=2)");
  return sbx_fail_errno (err, -errno,
                         "exec: cannot run the sealed copy of sbx-oci");
}
