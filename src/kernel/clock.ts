/** A timer a `Clock` made, handed back to cancel it. */
export type ClockTimer = unknown;

/**
 * Time as the code that expires, debounces and retries reads it: the real one in production, one a
 * test advances by hand (test/helpers/clock.ts), so no test waits for a timer to fire.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once, `ms` from now. */
  setTimeout(callback: () => void, ms: number): ClockTimer;
  /** Cancels a setTimeout's timer; one that fired already, or none, is no error. */
  clearTimeout(timer: ClockTimer): void;
  /** Calls `callback` every `ms` until cleared. */
  setInterval(callback: () => void, ms: number): ClockTimer;
  /** Cancels a setInterval's timer. */
  clearInterval(timer: ClockTimer): void;
}

/** The process's own clock and timers, read at each call. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (timer) => clearInterval(timer as ReturnType<typeof setInterval>),
};

/** Lets a timer run without keeping the process alive, where the runtime's timers can. */
export function unref(timer: ClockTimer): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
