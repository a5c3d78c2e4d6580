/* A forked child's failure before its exec, told to its parent on a
   CLOEXEC pipe: which step failed, its errno, and the step's own message
   when it has one.  A successful exec closes the pipe, so the parent
   reads EOF.  The one reporter of both launchers: the runner's
   (bwrap/spawn.c) and exec's (container/exec_join.c), each with its own
   steps, numbered from 1.  */
#ifndef SBX_CHILD_STEP_H
#define SBX_CHILD_STEP_H

struct sbx_child_step
{
  int step;
  int errnum;
  char detail[480]; /* "" unless the step had a message of its own */
};

/* In the child: tell STEP, ERRNUM and DETAIL (NULL: none) on REPORT_FD,
   then _exit (127).  */
__attribute__ ((noreturn)) void
sbx_child_step_fail (int report_fd, int step, int errnum, const char *detail);

/* In the parent: 1 with *OUT filled when the child failed (a step outside
   1..LAST_STEP reads as LAST_STEP, the exec), 0 when the pipe closed
   without a report.  */
int sbx_child_step_read (int report_fd, int last_step,
                         struct sbx_child_step *out);

#endif
