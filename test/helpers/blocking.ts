/**
 * Whether `read` settles before the event loop runs any I/O callback: a blocking call answers at
 * once, an fs/promises call only once the thread pool's answer comes back through the loop.
 * setImmediate's callback runs at the latest right after the loop's next poll for I/O, which
 * delivers at most one of the two answers (lstat, read) a read in place waits for.
 */
export async function settlesBeforeAnyIoCallback(read: () => Promise<unknown>): Promise<boolean> {
  let settled = false;
  const reading = read().then(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  const before = settled;
  await reading;
  return before;
}
