import type { Clock, ClockTimer } from "../../kernel/clock.js";
import type { CatalogSource } from "../types.js";

/** Sources report bursts (an editor's save, a git checkout): reload once the burst is over. */
const WATCH_DEBOUNCE_MS = 200;

/**
 * Calls `reload` with a source's name whenever it reports a change, debounced per source, so an
 * edit under one root never reloads the others. Returns a function that stops every watcher.
 */
export function watchSources(
  sources: readonly CatalogSource[],
  reload: (source: string) => void,
  clock: Clock,
): () => void {
  const timers = new Map<string, ClockTimer>();
  const stops = sources.flatMap((source) => {
    if (!source.watch) return [];
    const schedule = () => {
      clock.clearTimeout(timers.get(source.name));
      timers.set(
        source.name,
        clock.setTimeout(() => reload(source.name), WATCH_DEBOUNCE_MS),
      );
    };
    return [source.watch(schedule)];
  });
  return () => {
    for (const timer of timers.values()) clock.clearTimeout(timer);
    for (const stop of stops) stop();
  };
}
