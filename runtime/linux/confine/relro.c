/* RELRO for the static binaries (sbx-oci, sbx-oci-init): what the linker
   marked read-only after relocation (.data.rel.ro: the command table,
   the protected and credential lists; .got; .init_array and .fini_array)
   is made read-only before main.  glibc's static start-up and every
   dynamic loader do this; musl's static start-up does not, and the
   release build is linked with musl (docs/design.md).  Where it was done
   already, this repeats it.  A constructor because both binaries need it
   before anything else of theirs runs, and neither has another place
   that early.  */
#include <link.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__ ((constructor)) static void
seal_relro (void)
{
  const ElfW (Phdr) *ph = (const void *) getauxval (AT_PHDR);
  size_t n = getauxval (AT_PHNUM);
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  /* A position-independent executable is loaded at a bias its own
     program header entry gives away; a fixed one (ours) has none.  */
  uintptr_t bias = 0;
  for (size_t i = 0; ph && i < n; i++)
    if (ph[i].p_type == PT_PHDR)
      bias = (uintptr_t) ph - ph[i].p_vaddr;
  for (size_t i = 0; ph && i < n; i++)
    if (ph[i].p_type == PT_GNU_RELRO)
      {
        /* As glibc rounds: the start down to its page, the end down too
           (the linker pads the segment to end on a page).  */
        uintptr_t start = (bias + ph[i].p_vaddr) & ~(page - 1);
        uintptr_t end = (bias + ph[i].p_vaddr + ph[i].p_memsz) & ~(page - 1);
        if (end > start)
          mprotect ((void *) start, end - start, PROT_READ);
      }
}
