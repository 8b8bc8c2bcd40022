/**
 * Run `work` with a deadline. On timeout the signal handed to `work` is aborted (so well-behaved
 * work stops) and the returned promise rejects with `message`, whether or not `work` ever settles.
 * The signal stays linked to `parent` afterwards: a plugin that keeps its setup signal for
 * background work sees shutdown too.
 */
export async function withTimeout<T>(
  ms: number,
  message: string,
  parent: AbortSignal,
  work: (signal: AbortSignal) => T | Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", () => controller.abort(parent.reason), { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(message);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => work(controller.signal)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
