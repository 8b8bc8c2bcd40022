import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../src/cache/breaker.js";
import { manualClock } from "../helpers/clock.js";

function breaker(threshold = 3, retryAfterMs = 1_000) {
  const time = manualClock();
  const changes: boolean[] = [];
  const made = new CircuitBreaker(threshold, retryAfterMs, (open) => changes.push(open), time.clock);
  return { breaker: made, changes, advance: (ms: number) => time.tick(ms) };
}

describe("CircuitBreaker", () => {
  it("opens after threshold failures in a row, not after scattered ones", () => {
    const { breaker: b, changes } = breaker();
    b.failed();
    b.failed();
    b.succeeded();
    b.failed();
    b.failed();
    expect(b.open).toBe(false);
    b.failed();
    expect(b.open).toBe(true);
    expect(b.allows()).toBe(false);
    expect(changes).toEqual([true]);
  });

  it("lets one probe through per retry period; its success closes it", () => {
    const { breaker: b, changes, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failed();
    advance(1_000);
    expect(b.allows()).toBe(true);
    expect(b.allows()).toBe(false);
    b.failed();
    expect(b.allows()).toBe(false);
    advance(1_000);
    expect(b.allows()).toBe(true);
    b.succeeded();
    expect(b.open).toBe(false);
    expect(b.allows()).toBe(true);
    expect(changes).toEqual([true, false]);
  });

  it("closes at once on reset (the backend says it is back)", () => {
    const { breaker: b, changes } = breaker(1);
    b.failed();
    b.reset();
    b.reset();
    expect(b.open).toBe(false);
    expect(changes).toEqual([true, false]);
  });
});
