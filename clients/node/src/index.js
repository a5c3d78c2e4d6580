export { run } from './run.js';
export { Session } from './session.js';
export { SbxError, SbxAbortError } from './errors.js';
export { openFence, Fence, FenceError } from './fence.js';
