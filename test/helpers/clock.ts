import { createClock } from "@sinonjs/fake-timers";
import type { Clock } from "../../src/kernel/clock.js";

/** A clock of the test's own, from now on: time moves only when the test advances it. */
export function manualClock(start = Date.now()) {
  const fake = createClock(start);
  const clock: Clock = {
    now: () => fake.now,
    setTimeout: (callback, ms) => fake.setTimeout(callback, ms),
    clearTimeout: (timer) => fake.clearTimeout(timer as never),
    setInterval: (callback, ms) => fake.setInterval(callback, ms),
    clearInterval: (timer) => fake.clearInterval(timer as never),
  };
  return {
    clock,
    /** Move time on by `ms`, running each timer that falls due. */
    tick: (ms: number) => fake.tick(ms),
    /** As `tick`, letting the promises each timer settles run before the next fires. */
    tickAsync: (ms: number) => fake.tickAsync(ms),
    /** Timers waiting to fire. */
    pending: () => fake.countTimers(),
  };
}
