import { setImmediate } from "node:timers";

export const TIMED_OUT = Symbol("timed out");

/**
 * Deadlines for many short operations with one timer between them, not one each: a load that
 * makes ten thousand cache reads would otherwise arm and clear ten thousand timers. An operation
 * times out between `ms` and 1.5 × `ms` after it started.
 */
export class Deadlines {
  readonly #waiting = new Map<symbol, { due: number; expire: () => void }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #tick = Infinity;

  /** `work`'s value, or TIMED_OUT once its deadline has passed (work itself is not stopped). */
  race<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
    const id = Symbol();
    const expired = new Promise<typeof TIMED_OUT>((resolve) =>
      this.#waiting.set(id, { due: performance.now() + ms, expire: () => resolve(TIMED_OUT) }),
    );
    this.#arm(ms);
    return Promise.race([work, expired]).finally(() => {
      this.#waiting.delete(id);
      if (this.#waiting.size === 0) this.stop();
    });
  }

  #arm(ms: number): void {
    const tick = Math.max(1, Math.floor(ms / 2));
    if (this.#timer !== undefined && tick >= this.#tick) return;
    this.stop();
    this.#tick = tick;
    this.#timer = setInterval(() => {
      const now = performance.now();
      // Expire after this turn's I/O: when other work held the event loop past a deadline,
      // an answer that arrived meanwhile is read first, instead of counting as a timeout.
      setImmediate(() => {
        for (const [id, { due, expire }] of this.#waiting) {
          if (due <= now) {
            this.#waiting.delete(id);
            expire();
          }
        }
      });
    }, tick);
    // Pending cache operations alone never keep a process alive.
    this.#timer.unref?.();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#tick = Infinity;
  }
}
