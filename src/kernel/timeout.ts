/**
 * Run `work` with a deadline. On timeout the signal handed to `work` is aborted (so well-behaved
 * work stops) and the returned promise rejects with the error `timedOut` makes, whether or not `work` ever settles.
 * The signal stays linked to `parent` afterwards: a plugin that keeps its setup signal for
 * background work sees shutdown too. `AbortSignal.any` links them without adding a listener to
 * `parent` per call, so booting many plugins never trips MaxListenersExceededWarning.
 */
export async function withTimeout<T>(
  ms: number,
  timedOut: () => Error,
  parent: AbortSignal,
  work: (signal: AbortSignal) => T | Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  const signal = AbortSignal.any([parent, deadline.signal]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = timedOut();
      deadline.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => work(signal)), expired]);
  } finally {
    clearTimeout(timer);
  }
}
