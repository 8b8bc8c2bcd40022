import { systemClock, type Clock } from "../kernel/clock.js";

/**
 * A circuit breaker: after `threshold` failures in a row it opens, and callers skip the backend.
 * Once `retryAfterMs` has passed, one call goes through as a probe: its success closes the
 * breaker, its failure keeps it open for another `retryAfterMs`. `reset` closes it at once, for a
 * backend that says itself that it is back (a Redis client's "ready").
 */
export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;

  constructor(
    private readonly threshold: number,
    private readonly retryAfterMs: number,
    private readonly onChange: (open: boolean) => void,
    private readonly clock: Pick<Clock, "now"> = systemClock,
  ) {}

  get open(): boolean {
    return this.#openedAt !== undefined;
  }

  /** Whether a call may reach the backend now; when open, true for one probe per retry period. */
  allows(): boolean {
    if (this.#openedAt === undefined) return true;
    if (this.#probing || this.clock.now() - this.#openedAt < this.retryAfterMs) return false;
    this.#probing = true;
    return true;
  }

  succeeded(): void {
    this.#failures = 0;
    if (this.#openedAt !== undefined) this.reset();
  }

  failed(): void {
    this.#failures++;
    if (this.#openedAt !== undefined) {
      // A failed probe (or a failure reported by the backend): wait another period.
      this.#openedAt = this.clock.now();
      this.#probing = false;
    } else if (this.#failures >= this.threshold) {
      this.#openedAt = this.clock.now();
      this.onChange(true);
    }
  }

  reset(): void {
    const wasOpen = this.#openedAt !== undefined;
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
    if (wasOpen) this.onChange(false);
  }
}
