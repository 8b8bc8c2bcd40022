import { describe, expect, it } from "vitest";
import { WorkLimiter } from "../../../../src/plugins/transports/http/work-limit.js";
import { manualClock } from "../../../helpers/clock.js";

// Issue 34, item 5: places bound how much of a client's work runs at once, not how long it holds
// the event loop. While others are served, a client worked on for d ms rests d × (1 − share) /
// share ms before its next request starts. Time here is the test's own (manualClock).

function limiterWith(maxWorkShare: number) {
  const time = manualClock();
  const limiter = new WorkLimiter({ maxWorkInFlight: 8, maxWorkPerClient: 2, maxWorkQueuedPerClient: 8, maxWorkShare }, time.clock);
  /** Work that takes `ms` of the test's time; `started` says whether it began. */
  const work = (ms: number) => {
    const job = {
      started: false,
      run: () => {
        job.started = true;
        return new Promise<Response>((resolve) => time.clock.setTimeout(() => resolve(new Response("done")), ms));
      },
    };
    return job;
  };
  /** Work that ends when the test says. */
  const held = () => {
    let end!: () => void;
    const done = new Promise<Response>((resolve) => (end = () => resolve(new Response("done"))));
    return { run: () => done, end };
  };
  return { time, limiter, work, held };
}

const never = new AbortController().signal;

describe("a client's share of the server's time", () => {
  it("makes a client that was worked on rest while another client is served", async () => {
    const { time, limiter, work, held } = limiterWith(1 / 3);
    const other = held();
    const otherAnswer = limiter.run("10.0.0.2", never, other.run);
    const first = work(300);
    const firstAnswer = limiter.run("10.0.0.1", never, first.run);
    await time.tickAsync(300);
    expect((await firstAnswer).status).toBe(200);

    // 300 ms of work at a third of the time: 600 ms of rest, the first 50 of them forgiven.
    const second = work(10);
    const secondAnswer = limiter.run("10.0.0.1", never, second.run);
    await time.tickAsync(549);
    expect(second.started).toBe(false);
    await time.tickAsync(1);
    expect(second.started).toBe(true);
    await time.tickAsync(10);
    expect((await secondAnswer).status).toBe(200);
    other.end();
    await otherAnswer;
  });

  it("lets a client alone on the server go on at once", async () => {
    const { time, limiter, work } = limiterWith(1 / 3);
    const first = work(300);
    const firstAnswer = limiter.run("10.0.0.1", never, first.run);
    await time.tickAsync(300);
    await firstAnswer;
    const second = work(10);
    void limiter.run("10.0.0.1", never, second.run);
    await time.tickAsync(0);
    expect(second.started).toBe(true);
  });

  it("never makes a light client wait", async () => {
    const { time, limiter, work, held } = limiterWith(1 / 3);
    const other = held();
    void limiter.run("10.0.0.2", never, other.run);
    for (let call = 0; call < 5; call++) {
      const light = work(5);
      const answer = limiter.run("10.0.0.1", never, light.run);
      await time.tickAsync(0);
      expect(light.started).toBe(true);
      await time.tickAsync(5);
      await answer;
    }
    other.end();
  });

  it("counts a client seen within the last second as being served", async () => {
    const { time, limiter, work } = limiterWith(1 / 3);
    const others = work(1);
    const othersAnswer = limiter.run("10.0.0.2", never, others.run);
    await time.tickAsync(1);
    await othersAnswer;
    const first = work(300);
    const firstAnswer = limiter.run("10.0.0.1", never, first.run);
    await time.tickAsync(300);
    await firstAnswer;
    // The other client was last seen 300 ms ago: the server is still shared.
    const second = work(10);
    void limiter.run("10.0.0.1", never, second.run);
    await time.tickAsync(0);
    expect(second.started).toBe(false);
  });

  it("is off at a share of 1", async () => {
    const { time, limiter, work, held } = limiterWith(1);
    const other = held();
    void limiter.run("10.0.0.2", never, other.run);
    const first = work(300);
    const firstAnswer = limiter.run("10.0.0.1", never, first.run);
    await time.tickAsync(300);
    await firstAnswer;
    const second = work(10);
    void limiter.run("10.0.0.1", never, second.run);
    await time.tickAsync(0);
    expect(second.started).toBe(true);
    other.end();
  });

  it("does not work on a request whose client went away while it rested", async () => {
    const { time, limiter, work, held } = limiterWith(1 / 3);
    const other = held();
    void limiter.run("10.0.0.2", never, other.run);
    const first = work(300);
    const firstAnswer = limiter.run("10.0.0.1", never, first.run);
    await time.tickAsync(300);
    await firstAnswer;
    const gone = new AbortController();
    const second = work(10);
    const secondAnswer = limiter.run("10.0.0.1", gone.signal, second.run);
    await time.tickAsync(100);
    gone.abort();
    expect((await secondAnswer).status).toBe(503);
    expect(second.started).toBe(false);
    expect(time.pending()).toBe(0);
    other.end();
  });
});
