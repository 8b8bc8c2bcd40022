import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Logger } from "../kernel/logger.js";

/**
 * A served catalog's start-up grows V8's young generation to its largest (two semi-spaces of
 * 16 MB on 64-bit Node) and an idle server allocates next to nothing afterwards, so no collection
 * ever comes to shrink it again: 31 MB of a 10,000-skill server's resident memory are a young
 * generation holding nothing. V8 shrinks it after a collection that finds the allocation rate low
 * over its last five seconds, which takes two collections that far apart with the server quiet:
 * the first starts the window, the second finds it quiet. Minor collections, since nothing else is
 * asked of them: about a millisecond each.
 */
const QUIET_MS = 6_000;
/** Collections tried in all: a busy server (an agent searching) keeps the window from being quiet. */
const MAX_TRIES = 4;

type Collect = (options: { type: "minor" }) => void;

function youngGenerationSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/** Taken as the CLI starts, before anything grows it. */
const INITIAL_SIZE = youngGenerationSize();

/**
 * Once start-up work is over (the catalog loaded, the index built), gives back what the young
 * generation grew since the CLI started. Does nothing where V8 does not let a process collect its
 * own garbage (Bun, Deno).
 */
export function shrinkYoungGeneration(logger: Logger): void {
  const grown = youngGenerationSize();
  if (grown <= INITIAL_SIZE) return;
  const collect = minorCollector();
  if (!collect) return;
  collect({ type: "minor" });
  let tries = 1;
  const timer = setInterval(() => {
    collect({ type: "minor" });
    tries++;
    const size = youngGenerationSize();
    if (size > INITIAL_SIZE && tries < MAX_TRIES) return;
    clearInterval(timer);
    logger.debug(`young generation: ${mb(grown)} MB after start-up, ${mb(size)} MB after ${tries} minor collections`);
  }, QUIET_MS);
  timer.unref();
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * V8's gc() as --expose-gc gives it, without the flag on the command line (this CLI is started
 * as `node dist/cli.js` or through npx, which pass none): the flag installs gc() in contexts
 * created while it is set, so one context is made with it and the flag is unset again.
 */
export function minorCollector(): Collect | undefined {
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
