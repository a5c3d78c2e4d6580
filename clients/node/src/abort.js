// End a running sbx-oci when the caller's AbortSignal fires: SIGTERM first
// (sbx-oci forwards it to the sandbox's process group and then kills the whole
// tree), SIGKILL after a grace period (bwrap's --die-with-parent chain then
// ends the sandbox).
export function watchAbort(child, signal, graceMs = 3000) {
  const state = { aborted: false, detach: () => {} };
  if (!signal) return state;
  let timer;
  const onAbort = () => {
    state.aborted = true;
    child.kill('SIGTERM');
    timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    timer.unref();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  state.detach = () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  };
  return state;
}
