/* The sandbox's environment, kept away from the runner's own.
 *
 * bwrap runs on the host, as the caller, before any namespace exists: an
 * environment it is exec'd with is its dynamic loader's too (LD_PRELOAD,
 * LD_LIBRARY_PATH, LD_DEBUG_OUTPUT, GCONV_PATH ...).  So the runner gets an
 * empty environment, and the sandbox's reaches bwrap as --setenv
 * arguments read from a descriptor (--args FD): bwrap sets them for the
 * command only, and they never show in /proc/PID/cmdline, where every user
 * could read them.  */
#ifndef SBX_RUNNER_ENV_H
#define SBX_RUNNER_ENV_H

#include <stdio.h>

#include "common/error.h"
#include "common/strv.h"

/* "--setenv NAME VALUE" for each "NAME=VALUE" of ENV, NUL-separated as
   --args reads them, to F (0, or -EIO).  */
int sbx_runner_env_write (FILE *f, const struct strv *env);

/* *FD: a memfd (close-on-exec, at offset 0) holding "--setenv NAME VALUE"
   for each "NAME=VALUE" of ENV, NUL-separated as --args reads them, or -1
   when ENV is empty.  Returns 0, or a negative errno with ERR filled.  */
int sbx_runner_env_fd (const struct strv *env, int *fd, struct sbx_error *err);

#endif
