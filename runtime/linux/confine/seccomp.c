/* Compile OCI linux.seccomp with libseccomp into the BPF program that bwrap
   loads from `--seccomp FD`.  The mapping follows runc and crun so that a
   profile written for them (Docker's, podman's) means the same here.  */
#include "runtime/linux/confine/seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/linux/confine/seccomp_numbered.h"

#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))
/* A table of names ends with NULL; its value table has one entry less.  */
#define SAME_LENGTH(names, values)                                            \
  _Static_assert(N_ELEMENTS (names) == N_ELEMENTS (values) + 1,               \
                 #names " and " #values " differ in length")

/* The kernel caps a filter's errno at MAX_ERRNO; a larger errnoRet would be
   silently changed, so it is refused.  */
#define SBX_MAX_ERRNO 4095u
/* Linux system calls take at most six arguments.  */
#define SBX_SYSCALL_ARGS 6u
/* libseccomp builds a binary tree instead of a linear list when asked; runc
   asks above 32 rules (libseccomp <= 2.5.4 misbehaves with none).  */
#define SBX_TREE_THRESHOLD 32u

/* SCMP_ACT_NOTIFY is deliberately absent: it needs a listener process that
   receives the notification fd, and sbx-oci provides none.  */
const char *const sbx_seccomp_actions[] = {
  "SCMP_ACT_KILL",  "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD",
  "SCMP_ACT_TRAP",  "SCMP_ACT_ERRNO",        "SCMP_ACT_TRACE",
  "SCMP_ACT_ALLOW", "SCMP_ACT_LOG",          NULL,
};
/* ERRNO and TRACE carry errnoRet in their low 16 bits.  */
static const struct
{
  uint32_t base;
  bool takes_errno;
} action_values[] = {
  { SCMP_ACT_KILL, false },        { SCMP_ACT_KILL_PROCESS, false },
  { SCMP_ACT_KILL_THREAD, false }, { SCMP_ACT_TRAP, false },
  { SCMP_ACT_ERRNO (0), true },    { SCMP_ACT_TRACE (0), true },
  { SCMP_ACT_ALLOW, false },       { SCMP_ACT_LOG, false },
};
SAME_LENGTH (sbx_seccomp_actions, action_values);

const char *const sbx_seccomp_operators[] = {
  "SCMP_CMP_NE", "SCMP_CMP_LT", "SCMP_CMP_LE",        "SCMP_CMP_EQ",
  "SCMP_CMP_GE", "SCMP_CMP_GT", "SCMP_CMP_MASKED_EQ", NULL,
};
static const enum scmp_compare operator_values[] = {
  SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE,        SCMP_CMP_EQ,
  SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ,
};
SAME_LENGTH (sbx_seccomp_operators, operator_values);

/* The OCI names libseccomp 2.5.4 (Debian 12, the floor) can build for.  */
const char *const sbx_seccomp_architectures[] = {
  "SCMP_ARCH_X86",         "SCMP_ARCH_X86_64",
  "SCMP_ARCH_X32",         "SCMP_ARCH_ARM",
  "SCMP_ARCH_AARCH64",     "SCMP_ARCH_MIPS",
  "SCMP_ARCH_MIPS64",      "SCMP_ARCH_MIPS64N32",
  "SCMP_ARCH_MIPSEL",      "SCMP_ARCH_MIPSEL64",
  "SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC",
  "SCMP_ARCH_PPC64",       "SCMP_ARCH_PPC64LE",
  "SCMP_ARCH_S390",        "SCMP_ARCH_S390X",
  "SCMP_ARCH_PARISC",      "SCMP_ARCH_PARISC64",
  "SCMP_ARCH_RISCV64",     NULL,
};
static const uint32_t architecture_values[] = {
  SCMP_ARCH_X86,      SCMP_ARCH_X86_64,      SCMP_ARCH_X32,
  SCMP_ARCH_ARM,      SCMP_ARCH_AARCH64,     SCMP_ARCH_MIPS,
  SCMP_ARCH_MIPS64,   SCMP_ARCH_MIPS64N32,   SCMP_ARCH_MIPSEL,
  SCMP_ARCH_MIPSEL64, SCMP_ARCH_MIPSEL64N32, SCMP_ARCH_PPC,
  SCMP_ARCH_PPC64,    SCMP_ARCH_PPC64LE,     SCMP_ARCH_S390,
  SCMP_ARCH_S390X,    SCMP_ARCH_PARISC,      SCMP_ARCH_PARISC64,
  SCMP_ARCH_RISCV64,
};
SAME_LENGTH (sbx_seccomp_architectures, architecture_values);

/* Filter flags are arguments of seccomp(2), not part of the program: bwrap
   installs the program with prctl(PR_SET_SECCOMP), which takes none.  The
   attributes are still set, so that a flag this libseccomp or kernel cannot
   do is refused, and sbx_seccomp_notes says what is lost.  None of the
   three weakens the filter.  */
const char *const sbx_seccomp_flags[] = {
  "SECCOMP_FILTER_FLAG_TSYNC",
  "SECCOMP_FILTER_FLAG_LOG",
  "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
  NULL,
};
static const struct
{
  enum scmp_filter_attr attr;
  const char *lost;
} flag_values[] = {
  { SCMP_FLTATR_CTL_TSYNC,
    "moot, bwrap is single-threaded when it loads the filter" },
  { SCMP_FLTATR_CTL_LOG, "refused system calls are not audit-logged" },
  { SCMP_FLTATR_CTL_SSB,
    "the kernel keeps the speculative store bypass mitigation on" },
};
SAME_LENGTH (sbx_seccomp_flags, flag_values);

static int
name_index (const char *const *names, const char *name)
{
  for (int i = 0; name && names[i]; i++)
    if (strcmp (names[i], name) == 0)
      return i;
  return -1;
}

static void
cleanup_filterp (scmp_filter_ctx *ctx)
{
  if (*ctx)
    seccomp_release (*ctx);
}
#define cleanup_filter __attribute__ ((cleanup (cleanup_filterp)))

/* The libseccomp action for NAME; PATH is the JSON path of the object that
   holds the action ("linux.seccomp" or "linux.seccomp.syscalls[3]") and
   ACTION_KEY/ERRNO_KEY its member names.  */
static int
resolve_action (const char *path, const char *action_key,
                const char *errno_key, const char *name, bool has_errno,
                uint32_t errno_ret, uint32_t *out, struct sbx_error *err)
{
  if (name == NULL)
    return sbx_refuse_path (err, -EINVAL, "%s.%s: required", path, action_key);
  if (strcmp (name, "SCMP_ACT_NOTIFY") == 0)
    return sbx_refuse_path (
        err, -EOPNOTSUPP,
        "%s.%s: \"SCMP_ACT_NOTIFY\" needs a seccomp listener, "
        "which sbx-oci does not provide; use SCMP_ACT_ERRNO",
        path, action_key);
  int i = name_index (sbx_seccomp_actions, name);
  if (i < 0)
    return sbx_refuse_path (err, -EINVAL, "%s.%s: unsupported action \"%s\"",
                            path, action_key, name);
  if (has_errno && !action_values[i].takes_errno)
    return sbx_refuse_path (err, -EINVAL,
                            "%s.%s: only valid with SCMP_ACT_ERRNO or "
                            "SCMP_ACT_TRACE, not \"%s\"",
                            path, errno_key, name);
  if (has_errno && errno_ret > SBX_MAX_ERRNO)
    return sbx_refuse_path (
        err, -ERANGE, "%s.%s: %u is above the kernel's largest errno (%u)",
        path, errno_key, errno_ret, SBX_MAX_ERRNO);
  *out = action_values[i].base;
  if (action_values[i].takes_errno)
    *out |= has_errno ? errno_ret : (uint32_t) EPERM;
  return 0;
}

static int
add_architectures (scmp_filter_ctx ctx, const struct strv *archs,
                   struct sbx_error *err)
{
  for (size_t i = 0; i < archs->n; i++)
    {
      int k = name_index (sbx_seccomp_architectures, archs->v[i]);
      if (k < 0)
        return sbx_refuse_path (err, -EINVAL,
                                "linux.seccomp.architectures[%zu]: unknown "
                                "architecture \"%s\"",
                                i, archs->v[i]);
      /* The native architecture is already in the filter: EEXIST.  */
      int r = seccomp_arch_add (ctx, architecture_values[k]);
      if (r < 0 && r != -EEXIST)
        return sbx_fail_errno (err, r,
                               "linux.seccomp.architectures[%zu]: cannot add "
                               "\"%s\" to a filter for this host",
                               i, archs->v[i]);
    }
  return 0;
}

static int
set_flags (scmp_filter_ctx ctx, const struct strv *flags,
           struct sbx_error *err)
{
  for (size_t i = 0; i < flags->n; i++)
    {
      int k = name_index (sbx_seccomp_flags, flags->v[i]);
      if (k < 0)
        return sbx_refuse_path (
            err, -EINVAL, "linux.seccomp.flags[%zu]: unsupported flag \"%s\"",
            i, flags->v[i]);
      int r = seccomp_attr_set (ctx, flag_values[k].attr, 1);
      if (r < 0)
        return sbx_fail_errno (err, r,
                               "linux.seccomp.flags[%zu]: \"%s\" is not "
                               "supported by this kernel or libseccomp",
                               i, flags->v[i]);
    }
  return 0;
}

/* Turn RULE's args into libseccomp conditions (CMP has n_args slots) and
   say whether two of them name the same argument.  */
static int
build_conditions (const struct sbx_seccomp_rule *rule, size_t ri,
                  struct scmp_arg_cmp *cmp, bool *shared_index,
                  struct sbx_error *err)
{
  unsigned count[SBX_SYSCALL_ARGS] = { 0 };
  *shared_index = false;
  for (size_t j = 0; j < rule->n_args; j++)
    {
      const struct sbx_seccomp_arg *a = &rule->args[j];
      if (a->index >= SBX_SYSCALL_ARGS)
        return sbx_refuse_path (
            err, -EINVAL,
            "linux.seccomp.syscalls[%zu].args[%zu].index: %u "
            "is out of range (0-5)",
            ri, j, a->index);
      int op = name_index (sbx_seccomp_operators, a->op);
      if (op < 0)
        return sbx_refuse_path (
            err, -EINVAL,
            "linux.seccomp.syscalls[%zu].args[%zu].op: unknown "
            "operator \"%s\"",
            ri, j, a->op ? a->op : "");
      cmp[j] = (struct scmp_arg_cmp){ .arg = a->index,
                                      .op = operator_values[op],
                                      .datum_a = a->value,
                                      .datum_b = a->value_two };
      if (++count[a->index] > 1)
        *shared_index = true;
    }
  return 0;
}

/* The rules libseccomp cannot place, written by number before its
   program (seccomp_numbered.h).  */
struct numbered
{
  struct sbx_numbered_rule v[SBX_NUMBERED_RULES_MAX];
  size_t n;
};

/* NAME, unknown to libseccomp: a rule for it by number when the table has
   one and the rule compares no argument (the prelude compares numbers
   only); otherwise skipped, as runc and crun do, for a call this
   libseccomp does not know is mostly one the kernel does not have.  */
static int
add_numbered (struct numbered *nb, const struct sbx_seccomp_rule *rule,
              size_t ri, const char *name, uint32_t action,
              struct sbx_error *err)
{
  if (rule->n_args > 0
      || sbx_syscall_number (name, seccomp_arch_native ()) < 0)
    return 0;
  if (nb->n == SBX_NUMBERED_RULES_MAX)
    return sbx_refuse_path (
        err, -E2BIG,
        "linux.seccomp.syscalls[%zu]: more than %u rules for "
        "system calls this libseccomp does not know",
        ri, SBX_NUMBERED_RULES_MAX);
  nb->v[nb->n++] = (struct sbx_numbered_rule){ name, action };
  return 0;
}

static int
add_rule_for (scmp_filter_ctx ctx, struct numbered *nb,
              const struct sbx_seccomp_rule *rule, size_t ri, const char *name,
              uint32_t action, const struct scmp_arg_cmp *cmp,
              bool shared_index, struct sbx_error *err)
{
  int nr = seccomp_syscall_resolve_name (name);
  if (nr == __NR_SCMP_ERROR)
    return add_numbered (nb, rule, ri, name, action, err);
  int r = 0;
  if (!shared_index)
    r = seccomp_rule_add_array (ctx, action, nr, rule->n_args, cmp);
  else
    for (size_t j = 0; j < rule->n_args && r == 0; j++)
      r = seccomp_rule_add_array (ctx, action, nr, 1, &cmp[j]);
  if (r < 0)
    return sbx_fail_errno (err, r,
                           "linux.seccomp.syscalls[%zu]: cannot add the rule "
                           "for \"%s\"",
                           ri, name);
  return 0;
}

static int
add_rule (scmp_filter_ctx ctx, struct numbered *nb,
          const struct sbx_seccomp_rule *rule, size_t ri,
          uint32_t default_action, struct sbx_error *err)
{
  char path[64];
  snprintf (path, sizeof path, "linux.seccomp.syscalls[%zu]", ri);
  uint32_t action;
  int r = resolve_action (path, "action", "errnoRet", rule->action,
                          rule->has_errno_ret, rule->errno_ret, &action, err);
  if (r < 0)
    return r;
  cleanup_free struct scmp_arg_cmp *cmp
      = calloc (rule->n_args ? rule->n_args : 1, sizeof *cmp);
  if (cmp == NULL)
    return sbx_fail (err, -ENOMEM, "%s: out of memory", path);
  bool shared_index;
  r = build_conditions (rule, ri, cmp, &shared_index, err);
  if (r < 0)
    return r;
  /* libseccomp refuses a rule that repeats the default action.  */
  if (action == default_action)
    return 0;
  for (size_t k = 0; k < rule->names.n; k++)
    {
      r = add_rule_for (ctx, nb, rule, ri, rule->names.v[k], action, cmp,
                        shared_index, err);
      if (r < 0)
        return r;
    }
  return 0;
}

/* Build the filter SC describes into *CTX (released by the caller) and
   NB.  */
static int
build_filter (const struct sbx_seccomp *sc, scmp_filter_ctx *ctx,
              struct numbered *nb, struct sbx_error *err)
{
  uint32_t default_action;
  int r = resolve_action ("linux.seccomp", "defaultAction", "defaultErrnoRet",
                          sc->default_action, sc->has_default_errno_ret,
                          sc->default_errno_ret, &default_action, err);
  if (r < 0)
    return r;
  *ctx = seccomp_init (default_action);
  if (*ctx == NULL)
    return sbx_refuse_path (
        err, -EINVAL,
        "linux.seccomp.defaultAction: \"%s\" is not supported "
        "by this kernel or libseccomp",
        sc->default_action);
  r = add_architectures (*ctx, &sc->architectures, err);
  if (r < 0)
    return r;
  r = set_flags (*ctx, &sc->flags, err);
  if (r < 0)
    return r;
  /* Only a speed-up: an older libseccomp without it builds a linear list,
     which filters the same way (runc ignores the failure too).  */
  if (sc->n_syscalls > SBX_TREE_THRESHOLD)
    (void) seccomp_attr_set (*ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
  for (size_t i = 0; i < sc->n_syscalls; i++)
    {
      r = add_rule (*ctx, nb, &sc->syscalls[i], i, default_action, err);
      if (r < 0)
        return r;
    }
  return 0;
}

/* The rules by number first, for each architecture of CTX; libseccomp's
   program follows and starts afresh.  */
static int
write_numbered (scmp_filter_ctx ctx, const struct numbered *nb, int fd,
                struct sbx_error *err)
{
  if (nb->n == 0)
    return 0;
  uint32_t archs[N_ELEMENTS (architecture_values)];
  size_t n = 0;
  for (size_t i = 0; i < N_ELEMENTS (architecture_values); i++)
    if (seccomp_arch_exist (ctx, architecture_values[i]) == 0)
      archs[n++] = architecture_values[i];
  int r = sbx_numbered_prelude_write (fd, archs, n, nb->v, nb->n);
  if (r < 0)
    return sbx_fail_errno (err, r,
                           "cannot write out the compiled seccomp "
                           "program");
  return 0;
}

static int
compile_into (const struct sbx_seccomp *sc, int fd, struct sbx_error *err)
{
  cleanup_filter scmp_filter_ctx ctx = NULL;
  struct numbered nb = { .n = 0 };
  int r = build_filter (sc, &ctx, &nb, err);
  if (r == 0)
    r = write_numbered (ctx, &nb, fd, err);
  if (r < 0)
    return r;
  r = seccomp_export_bpf (ctx, fd);
  if (r < 0)
    return sbx_fail_errno (err, r,
                           "cannot write out the compiled seccomp program");
  return 0;
}

/* The program in a sealed memfd, rewound for bwrap to read.  */
int
sbx_seccomp_compile (const struct sbx_seccomp *sc, struct sbx_error *err)
{
  cleanup_close int fd
      = memfd_create ("sbx-seccomp-bpf", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0)
    return sbx_fail_errno (err, -errno, "linux.seccomp: memfd_create");
  int r = compile_into (sc, fd, err);
  if (r < 0)
    return r;
  if (lseek (fd, 0, SEEK_SET) < 0)
    return sbx_fail_errno (err, -errno, "linux.seccomp: lseek");
  if (fcntl (fd, F_ADD_SEALS,
             F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL)
      < 0)
    return sbx_fail_errno (err, -errno, "linux.seccomp: sealing the program");
  return steal_fd (&fd);
}

int
sbx_seccomp_notes (const struct sbx_seccomp *sc, struct strv *notes)
{
  for (size_t i = 0; i < sc->flags.n; i++)
    {
      int k = name_index (sbx_seccomp_flags, sc->flags.v[i]);
      if (k < 0)
        continue; /* sbx_seccomp_compile refuses it */
      if (strv_pushf (notes,
                      "linux.seccomp.flags[%zu]: %s is not passed to the "
                      "kernel (bwrap loads the filter with prctl): %s",
                      i, sc->flags.v[i], flag_values[k].lost)
          < 0)
        return -ENOMEM;
    }
  return 0;
}
