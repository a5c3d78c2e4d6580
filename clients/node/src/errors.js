// One error type for every failure of the library or the binary that is not a
// command's own result: `status` is the exit status of sbx-oci (null when it
// could not be started), `message` one line, as the binary printed it.
export class SbxError extends Error {
  constructor(message, { status = null, outcome = undefined } = {}) {
    super(message);
    this.name = 'SbxError';
    this.status = status;
    this.outcome = outcome;
  }
}

// The call was aborted through its AbortSignal: the sandbox was ended, and
// `outcome` is what sbx-oci reported about it (undefined if it was killed
// before it could write one).
export class SbxAbortError extends SbxError {
  constructor(outcome, status) {
    super('the call was aborted: the sandbox was ended', { status, outcome });
    this.name = 'AbortError';
  }
}
