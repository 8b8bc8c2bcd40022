import { setImmediate } from "node:timers";

/**
 * How long the load works synchronously (listing folders, reading and parsing skill files) before
 * it lets the event loop run. The load starts while the server still boots and shakes hands, and
 * every step of that (a plugin's chunk imported, a message read from stdin) waits up to one slice:
 * short slices keep the first answers as prompt as with an asynchronous loader, at no cost to the
 * load itself (docs/benchmarks.md).
 */
const SLICE_MS = 2;

/**
 * Runs `task` over `items` one after another, in order, letting the event loop run every
 * SLICE_MS. On a warm page cache a folder listing or a file read is a small call, where the
 * asynchronous form costs more CPU than the call itself; slicing keeps the server
 * answering while a large catalog loads. `slices` false: one run to the end, for a load nothing
 * else waits on (a one-shot command), where the yields are only cost.
 */
export async function inSlices<T, R>(
  items: readonly T[],
  task: (item: T) => R | Promise<R>,
  signal: AbortSignal,
  slices = true,
): Promise<R[]> {
  const results: R[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    signal.throwIfAborted();
    const result = task(item);
    results.push(result instanceof Promise ? await result : result);
    if (slices && performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return results;
}
