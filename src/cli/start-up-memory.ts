import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import type { Logger } from "../kernel/logger.js";

/*
 * What a served catalog's start-up leaves behind, given back once the server is quiet. The load
 * grows V8's young generation to its largest (two semi-spaces of 16 MB on 64-bit Node) and leaves
 * its garbage in old-space pages; an idle server allocates next to nothing afterwards, so no
 * collection may come to shrink either: at 10,000 skills on a busy machine, 45 s after the first
 * answer, 31 MB of young generation held nothing (V8's memory reducer had not run). V8 shrinks
 * the young generation after a collection that finds the allocation rate of its last five
 * seconds low, gives back old-space pages once a second full collection has compacted what the
 * first left fragmented, and its memory reducer, set off by those, does the rest when idle.
 *
 * So: a minor collection as soon as start-up is over (about a millisecond; it starts V8's
 * window), then, each time the event loop has been idle for QUIET_MS, the next of two full
 * collections. A full collection stops the process while it runs (docs/benchmarks.md has how
 * long), so it is only made when nothing has happened for that long, never while an agent is
 * being answered.
 */
const QUIET_MS = 6_000;
/** Idle enough: the event loop busy less than this share of the window (a search or two is more). */
const QUIET_UTILIZATION = 0.01;
/**
 * Windows waited in all for quiet ones: 5 minutes, since at 100,000 skills the watchers take a
 * while to arm; a server kept busy that long keeps what it has.
 */
const MAX_WINDOWS = 50;
const FULL_COLLECTIONS = 2;

type Collect = (options?: { type: "minor" }) => void;

function youngGenerationSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/** Taken as the CLI starts, before anything grows it. */
const INITIAL_SIZE = youngGenerationSize();

/**
 * Once start-up work is over (the catalog loaded, the index built), gives back what it left
 * behind (see above), if it grew the young generation at all: a small catalog's start-up leaves
 * too little to be worth a pause. Does nothing where V8 does not let a process collect its own
 * garbage (Bun, Deno).
 */
export function giveBackStartUpMemory(logger: Logger): void {
  if (youngGenerationSize() <= INITIAL_SIZE) return;
  const collect = collector();
  if (!collect) return;
  const rssBefore = process.memoryUsage().rss;
  collect({ type: "minor" });
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let windows = 0;
  let full = 0;
  let paused = 0;
  const timer = setInterval(() => {
    windows++;
    const now = performance.eventLoopUtilization();
    const quiet = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILIZATION;
    if (quiet) {
      const started = performance.now();
      collect();
      paused += performance.now() - started;
      full++;
    }
    // What the collection took is not the server's activity.
    last = performance.eventLoopUtilization();
    if (full < FULL_COLLECTIONS && windows < MAX_WINDOWS) return;
    clearInterval(timer);
    logger.debug(
      `after start-up: ${full} full collections in ${Math.round(paused)} ms, RSS ${mb(rssBefore)} → ${mb(process.memoryUsage().rss)} MB, ` +
        `young generation ${mb(youngGenerationSize())} MB`,
    );
  }, QUIET_MS);
  timer.unref();
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * V8's gc() as --expose-gc gives it, without the flag on the command line (this CLI is started
 * as `node dist/cli.js` or through npx, which pass none): the flag installs gc() in contexts
 * created while it is set, so one context is made with it and the flag is unset again.
 */
export function collector(): Collect | undefined {
  const existing = (globalThis as { gc?: Collect }).gc;
  if (typeof existing === "function") return existing;
  try {
    setFlagsFromString("--expose-gc");
    const collect: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
    return typeof collect === "function" ? (collect as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}
