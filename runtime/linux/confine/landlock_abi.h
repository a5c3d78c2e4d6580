/* Landlock's user-space ABI, as far as sbx-oci uses it: shared by the
   helper that applies the domain (landlock_helper.c, built without libc)
   and by sbx-oci, which probes the ABI and reports what it holds.  Our
   own names, so that an old <linux/landlock.h> neither clashes nor limits
   what is known.  */
#ifndef SBX_LANDLOCK_ABI_H
#define SBX_LANDLOCK_ABI_H

#include <stdint.h>

/* The same numbers on every architecture (the unified syscall table).  */
#define SBX_NR_LANDLOCK_CREATE_RULESET 444
#define SBX_NR_LANDLOCK_ADD_RULE 445
#define SBX_NR_LANDLOCK_RESTRICT_SELF 446

#define SBX_LL_CREATE_RULESET_VERSION (1U << 0)
#define SBX_LL_RULE_PATH_BENEATH 1
#define SBX_LL_RULE_NET_PORT 2 /* ABI 4 */

struct sbx_ll_ruleset_attr
{
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped; /* ABI 6 */
};

struct sbx_ll_path_beneath_attr
{
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__ ((packed));

struct sbx_ll_net_port_attr
{
  uint64_t allowed_access;
  uint64_t port;
} __attribute__ ((packed));

/* Network rights (ABI 4).  */
#define SBX_LL_NET_CONNECT_TCP (1ULL << 1)

/* Filesystem rights.  */
#define SBX_LL_FS_EXECUTE (1ULL << 0)
#define SBX_LL_FS_WRITE_FILE (1ULL << 1)
#define SBX_LL_FS_READ_FILE (1ULL << 2)
#define SBX_LL_FS_READ_DIR (1ULL << 3)
#define SBX_LL_FS_REMOVE_DIR (1ULL << 4)
#define SBX_LL_FS_REMOVE_FILE (1ULL << 5)
#define SBX_LL_FS_MAKE_CHAR (1ULL << 6)
#define SBX_LL_FS_MAKE_DIR (1ULL << 7)
#define SBX_LL_FS_MAKE_REG (1ULL << 8)
#define SBX_LL_FS_MAKE_SOCK (1ULL << 9)
#define SBX_LL_FS_MAKE_FIFO (1ULL << 10)
#define SBX_LL_FS_MAKE_BLOCK (1ULL << 11)
#define SBX_LL_FS_MAKE_SYM (1ULL << 12)
#define SBX_LL_FS_REFER (1ULL << 13)     /* ABI 2 */
#define SBX_LL_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define SBX_LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */

/* Scopes (ABI 6).  */
#define SBX_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SBX_LL_SCOPE_SIGNAL (1ULL << 1)

/* Every filesystem right ABI 1 knows.  */
#define SBX_LL_FS_ABI1 ((1ULL << 13) - 1)

/* The highest ABI whose rights sbx-oci knows and uses; ABI 7 adds only
   audit-logging flags, which change nothing that is enforced.  */
#define SBX_LL_ABI_KNOWN 7

/* The filesystem rights ABI handles (newer ABIs add, never remove).  */
static inline uint64_t
sbx_ll_fs_handled (int abi)
{
  uint64_t m = abi >= 1 ? SBX_LL_FS_ABI1 : 0;
  if (abi >= 2)
    m |= SBX_LL_FS_REFER;
  if (abi >= 3)
    m |= SBX_LL_FS_TRUNCATE;
  if (abi >= 5)
    m |= SBX_LL_FS_IOCTL_DEV;
  return m;
}

static inline uint64_t
sbx_ll_scoped (int abi)
{
  return abi >= 6 ? SBX_LL_SCOPE_ABSTRACT_UNIX_SOCKET | SBX_LL_SCOPE_SIGNAL
                  : 0;
}

/* What the helper grants, by kind of path (its -r, -w and -d options).  */
#define SBX_LL_READ                                                           \
  (SBX_LL_FS_EXECUTE | SBX_LL_FS_READ_FILE | SBX_LL_FS_READ_DIR)
/* Everything but making device nodes, and ioctl on devices.  */
#define SBX_LL_WRITE                                                          \
  (SBX_LL_READ | SBX_LL_FS_WRITE_FILE | SBX_LL_FS_REMOVE_DIR                  \
   | SBX_LL_FS_REMOVE_FILE | SBX_LL_FS_MAKE_DIR | SBX_LL_FS_MAKE_REG          \
   | SBX_LL_FS_MAKE_SOCK | SBX_LL_FS_MAKE_FIFO | SBX_LL_FS_MAKE_SYM           \
   | SBX_LL_FS_REFER | SBX_LL_FS_TRUNCATE)
/* A device node (or a directory of them): read, write, ioctl; no new
   names.  */
#define SBX_LL_DEVICE                                                         \
  (SBX_LL_READ | SBX_LL_FS_WRITE_FILE | SBX_LL_FS_TRUNCATE                    \
   | SBX_LL_FS_IOCTL_DEV)

#endif
