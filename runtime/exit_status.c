#include "runtime/exit_status.h"

int
sbx_exit_status_of (const struct sbx_error *err)
{
  switch (err->kind)
    {
    case SBX_ERROR_USAGE:
      return SBX_EXIT_USAGE;
    case SBX_ERROR_NO_CONTAINER:
      return SBX_EXIT_NO_CONTAINER;
    case SBX_ERROR_NOT_FOUND:
      return SBX_EXIT_NOT_FOUND;
    case SBX_ERROR_NOT_EXECUTABLE:
      return SBX_EXIT_NOT_EXECUTABLE;
    case SBX_ERROR_REFUSED:
      return SBX_EXIT_REFUSED;
    case SBX_ERROR_RUNTIME:
      break;
    }
  return SBX_EXIT_FAILURE;
}
