/**
 * Whether two readings of one file's timestamp (milliseconds since the epoch) are the same time.
 * Runtimes read the same inode at different precisions (Node and Bun to a fraction of a
 * millisecond; Deno to whole milliseconds, and ctime to whole seconds), and a snapshot one
 * runtime wrote is read by another: a reading matches a coarser one that is it truncated to whole
 * milliseconds or seconds. For mtime that is safe: a snapshot keeps only records written before
 * the racy window (source.ts), so a later write moves mtime past it, into another second. A ctime
 * moved within its stored second (a chmod, with no write) goes unseen, as under Deno alone.
 */
export function sameTime(a: number, b: number): boolean {
  if (a === b) return true;
  // Truncating only lowers a time: the smaller reading is the coarser one.
  const [fine, coarse] = a < b ? [b, a] : [a, b];
  return coarse === Math.floor(fine) || coarse === Math.floor(fine / 1000) * 1000;
}
