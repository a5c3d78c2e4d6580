"""One error type for every failure that is not a command's own result."""
from typing import Optional


class SbxError(Exception):
    """sbx-oci refused or failed: `status` is its exit status (None when it
    could not be started), the message one line, as the binary printed it."""

    def __init__(self, message: str, status: Optional[int] = None, outcome=None):
        super().__init__(message)
        self.status = status
        self.outcome = outcome
