import { describe, expect, it } from "vitest";
import { AnswerTiming } from "../../src/skills/catalog/answer-timing.js";
import { manualClock } from "../helpers/clock.js";

/** A promise's state, read after the test lets time (and so pending callbacks) run. */
function watched(promise: Promise<unknown>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

const never = () => new Promise<void>(() => undefined);

describe("AnswerTiming", () => {
  it("without a bound, answers wait for the load however long it takes", async () => {
    const time = manualClock();
    const timing = new AnswerTiming(time.clock);
    let finish = () => {};
    const load = new Promise<void>((resolve) => (finish = resolve));
    timing.loadStarted();
    const first = watched(timing.firstAnswer(load, () => ["slow"]));
    const refreshed = watched(timing.within(load));
    await time.tickAsync(24 * 60 * 60_000);
    expect([first(), refreshed(), timing.answersWait()]).toEqual([false, false, true]);
    finish();
    await time.tickAsync(0);
    expect([first(), refreshed()]).toEqual([true, true]);
    expect(timing.answeredWithout()).toEqual([]);
  });

  it("bounds first answers from the first load's start, and names the sources they went without", async () => {
    const time = manualClock();
    const timing = new AnswerTiming(time.clock);
    timing.loadStarted();
    await time.tickAsync(6);
    // A later start changes nothing: the bound counts from the first.
    timing.loadStarted();
    timing.answerWithin(10);
    const first = watched(timing.firstAnswer(never(), () => ["slow"]));
    await time.tickAsync(3);
    expect(first()).toBe(false);
    expect(timing.answersWait()).toBe(true);
    await time.tickAsync(1);
    expect(first()).toBe(true);
    expect(timing.answersWait()).toBe(false);
    expect(timing.answeredWithout()).toEqual(["slow"]);
  });

  it("bounds a refresh from the call", async () => {
    const time = manualClock();
    const timing = new AnswerTiming(time.clock);
    timing.answerWithin(10);
    timing.loadStarted();
    await time.tickAsync(60);
    const refreshed = watched(timing.within(never()));
    await time.tickAsync(9);
    expect(refreshed()).toBe(false);
    await time.tickAsync(1);
    expect(refreshed()).toBe(true);
  });

  it("past the bound, waits for one source when asked to (a one-shot command)", async () => {
    const time = manualClock();
    const timing = new AnswerTiming(time.clock);
    timing.track("folder");
    timing.answerWithin(10, { waitForOneSource: true });
    timing.loadStarted();
    const first = watched(timing.firstAnswer(never(), () => ["catalog"]));
    await time.tickAsync(60_000);
    expect(first()).toBe(false);
    timing.sourceSettled("folder");
    await time.tickAsync(0);
    expect(first()).toBe(true);
    // Once some source has settled, the bound alone decides.
    const refreshed = watched(timing.within(never()));
    await time.tickAsync(10);
    expect(refreshed()).toBe(true);
  });

  it("no answer waits once a load has finished", () => {
    const timing = new AnswerTiming(manualClock().clock);
    expect(timing.answersWait()).toBe(true);
    timing.loadFinished();
    expect([timing.loaded, timing.answersWait()]).toEqual([true, false]);
  });

  it("waits for the first loads of the sources named, at most ms from the first load's start", async () => {
    const time = manualClock();
    const timing = new AnswerTiming(time.clock);
    for (const source of ["a", "b", "remote"]) timing.track(source);
    const both = watched(timing.firstLoadOf(["a", "b"], 1_000));
    timing.sourceSettled("a");
    await time.tickAsync(0);
    expect(both()).toBe(false);
    timing.sourceSettled("b");
    await time.tickAsync(0);
    expect(both()).toBe(true);

    expect(timing.started).toBe(false);
    timing.loadStarted();
    await time.tickAsync(400);
    const remote = watched(timing.firstLoadOf(["remote"], 1_000));
    await time.tickAsync(599);
    expect(remote()).toBe(false);
    await time.tickAsync(1);
    expect(remote()).toBe(true);
  });
});
