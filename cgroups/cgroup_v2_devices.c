/* cgroup v2 has no device files: the kernel asks a BPF program of type
   BPF_PROG_TYPE_CGROUP_DEVICE, attached to the cgroup, about every open
   and mknod of a device node.  The rules are first reduced as v1's kernel
   reduces writes to devices.allow and devices.deny (a default and
   exceptions to it), so that one config means the same on either
   version, then compiled: one test per exception, the default last.
   Without it, a root container given CAP_MKNOD (podman's default set
   has it) could make the host disk's node anywhere it may write and read
   it.  */
#include "cgroups/cgroup_backend.h"
#include "common/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One exception to the default, as v1 keeps it.  */
struct exception
{
  char type; /* 'b' or 'c' */
  int64_t major, minor;
  unsigned access; /* BPF_DEVCG_ACC_* */
};

struct reduced
{
  bool allow; /* the default */
  struct exception *ex;
  size_t n;
};

static unsigned
access_bits (const char *access)
{
  unsigned bits = 0;
  for (const char *p = access; *p; p++)
    bits |= *p == 'r'   ? BPF_DEVCG_ACC_READ
            : *p == 'w' ? BPF_DEVCG_ACC_WRITE
            : *p == 'm' ? BPF_DEVCG_ACC_MKNOD
                        : 0;
  return bits;
}

static struct exception *
find (struct reduced *s, const struct sbx_cgroup_device *d)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->ex[i].type == d->type && s->ex[i].major == d->major
        && s->ex[i].minor == d->minor)
      return &s->ex[i];
  return NULL;
}

/* v1's devcgroup_update_access: "a" resets the default and drops every
   exception; a rule of the default's kind takes its access away from the
   exception for the same node, one of the other kind adds to it.  */
static void
reduce_one (struct reduced *s, const struct sbx_cgroup_device *d)
{
  if (d->type == 'a')
    {
      s->allow = d->allow;
      s->n = 0;
      return;
    }
  unsigned bits = access_bits (d->access);
  struct exception *e = find (s, d);
  if (d->allow == s->allow)
    {
      if (e && (e->access &= ~bits) == 0)
        *e = s->ex[--s->n];
    }
  else if (e)
    e->access |= bits;
  else if (bits)
    s->ex[s->n++] = (struct exception){ d->type, d->major, d->minor, bits };
}

/* Instructions, as the kernel's uapi spells them.  */
#define INSN(c, d, s, o, i)                                                   \
  ((struct bpf_insn){                                                         \
      .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define LDX_W(d, s, o) INSN (BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define ALU_K(op, d, i) INSN (BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define MOV_X(d, s) INSN (BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define JMP_K(op, d, i, o) INSN (BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define EXIT() INSN (BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

enum
{
  R_TYPE = 3,   /* BPF_DEVCG_DEV_BLOCK or _CHAR */
  R_ACCESS = 4, /* BPF_DEVCG_ACC_* asked for */
  R_MAJOR = 5,
  R_MINOR = 6,
  MAX_PER_EXCEPTION = 8,
};

/* The tests of exception E, at P: a match returns E's answer, anything
   else falls through to the next.  An allow (the default denies) must
   cover every access asked for, a deny (the default allows) any.  */
static size_t
emit_exception (struct bpf_insn *p, const struct exception *e, bool allow)
{
  struct bpf_insn t[MAX_PER_EXCEPTION];
  size_t n = 0;
  /* 4294967295 is "any" to v1's kernel, as "*" is; no device has a
     number above INT32_MAX (12 bits of major, 20 of minor), and the
     program's immediates are 32-bit signed.  */
  int64_t major = e->major == UINT32_MAX ? -1 : e->major;
  int64_t minor = e->minor == UINT32_MAX ? -1 : e->minor;
  if (major > INT32_MAX || minor > INT32_MAX)
    return 0;
  t[n++]
      = JMP_K (BPF_JNE, R_TYPE,
               e->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR, 0);
  if (major >= 0)
    t[n++] = JMP_K (BPF_JNE, R_MAJOR, (int32_t) major, 0);
  if (minor >= 0)
    t[n++] = JMP_K (BPF_JNE, R_MINOR, (int32_t) minor, 0);
  t[n++] = MOV_X (0, R_ACCESS);
  t[n++] = ALU_K (BPF_AND, 0, (int32_t) (allow ? ~e->access & 7 : e->access));
  t[n++] = JMP_K (allow ? BPF_JNE : BPF_JEQ, 0, 0, 0);
  t[n++] = ALU_K (BPF_MOV, 0, allow ? 1 : 0);
  t[n++] = EXIT ();
  /* Every jump lands just past this exception's last instruction.  */
  for (size_t i = 0; i < n; i++)
    if (BPF_CLASS (t[i].code) == BPF_JMP && BPF_OP (t[i].code) != BPF_EXIT)
      t[i].off = (int16_t) (n - i - 1);
  memcpy (p, t, n * sizeof *t);
  return n;
}

static size_t
compile (const struct reduced *s, struct bpf_insn *p)
{
  size_t n = 0;
  p[n++] = LDX_W (2, 1, offsetof (struct bpf_cgroup_dev_ctx, access_type));
  p[n++] = MOV_X (R_TYPE, 2);
  p[n++] = ALU_K (BPF_AND, R_TYPE, 0xffff);
  p[n++] = MOV_X (R_ACCESS, 2);
  p[n++] = ALU_K (BPF_RSH, R_ACCESS, 16);
  p[n++] = LDX_W (R_MAJOR, 1, offsetof (struct bpf_cgroup_dev_ctx, major));
  p[n++] = LDX_W (R_MINOR, 1, offsetof (struct bpf_cgroup_dev_ctx, minor));
  for (size_t i = 0; i < s->n; i++)
    n += emit_exception (p + n, &s->ex[i], !s->allow);
  p[n++] = ALU_K (BPF_MOV, 0, s->allow ? 1 : 0);
  p[n++] = EXIT ();
  return n;
}

static int
load_and_attach (const char *dir, const struct bpf_insn *insns, size_t n)
{
  union bpf_attr load = { 0 };
  load.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
  load.insns = (uint64_t) (uintptr_t) insns;
  load.insn_cnt = (uint32_t) n;
  load.license = (uint64_t) (uintptr_t) "GPL";
  cleanup_close int prog
      = (int) syscall (SYS_bpf, BPF_PROG_LOAD, &load, sizeof load);
  if (prog < 0)
    return -errno;
  cleanup_close int cg = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (cg < 0)
    return -errno;
  /* ALLOW_MULTI: a program an ancestor attached with ALLOW_MULTI too
     (systemd's) still has its say, and ours is added to it.  */
  union bpf_attr attach = { 0 };
  attach.target_fd = (uint32_t) cg;
  attach.attach_bpf_fd = (uint32_t) prog;
  attach.attach_type = BPF_CGROUP_DEVICE;
  attach.attach_flags = BPF_F_ALLOW_MULTI;
  if (syscall (SYS_bpf, BPF_PROG_ATTACH, &attach, sizeof attach) < 0)
    return -errno;
  return 0; /* the attachment keeps the program until the cgroup goes */
}

int
cg2_write_devices (const char *dir, const struct sbx_cgroup_limits *l,
                   struct sbx_error *err)
{
  cleanup_free struct sbx_cgroup_device *rules = NULL;
  size_t n_rules;
  if (cgfs_device_rules (l, &rules, &n_rules) < 0)
    return sbx_fail (err, -ENOMEM, "out of memory");
  cleanup_free struct exception *ex = calloc (n_rules + 1, sizeof *ex);
  cleanup_free struct bpf_insn *insns
      = calloc (n_rules * MAX_PER_EXCEPTION + 16, sizeof *insns);
  if (ex == NULL || insns == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  struct reduced s = { true, ex, 0 };
  for (size_t i = 0; i < n_rules; i++)
    reduce_one (&s, &rules[i]);
  int r = load_and_attach (dir, insns, compile (&s, insns));
  if (r < 0)
    return sbx_fail_errno (err, r,
                           "%s: attaching the linux.resources.devices "
                           "program (BPF_CGROUP_DEVICE)",
                           dir);
  return 0;
}
