import { describe, expect, it } from "vitest";
import { WorkLimiter } from "../../../../src/plugins/transports/http/work-limit.js";
import { manualClock } from "../../../helpers/clock.js";

// Issue 34, item 5: places bound how much of a client's work runs at once, not how long it holds
// the event loop. While others are served, a client worked on for d ms rests d × (1 − share) /
// share ms before its next request starts. Time here is the test's own (manualClock).

const BUSY = "10.0.0.1";
const OTHER = "10.0.0.2";
const never = new AbortController().signal;

function limiterWith(maxWorkShare: number) {
  const time = manualClock();
  const limiter = new WorkLimiter(
    { maxWorkInFlight: 8, maxWorkPerClient: 2, maxWorkQueuedPerClient: 8, maxWorkShare },
    time.clock,
  );
  /** A request of `client` whose work takes `ms` of the test's time; `started` says whether it began. */
  const request = (client: string, ms: number, signal = never) => {
    let started = false;
    const answer = limiter.run(client, signal, () => {
      started = true;
      return new Promise<Response>((resolve) => time.clock.setTimeout(() => resolve(new Response("done")), ms));
    });
    return {
      answer,
      get started() {
        return started;
      },
    };
  };
  /** BUSY worked on for `ms`, its answer sent. */
  const busyFor = async (ms: number) => {
    const job = request(BUSY, ms);
    await time.tickAsync(ms);
    expect((await job.answer).status).toBe(200);
  };
  /** OTHER with a request in flight until `end()`. */
  const otherServed = () => {
    let end!: () => void;
    const done = new Promise<Response>((resolve) => (end = () => resolve(new Response("done"))));
    const answer = limiter.run(OTHER, never, () => done);
    return { answer, end };
  };
  return { time, request, busyFor, otherServed };
}

describe("a client's share of the server's time", () => {
  it("makes a client that was worked on rest while another client is served", async () => {
    const { time, request, busyFor, otherServed } = limiterWith(1 / 3);
    const other = otherServed();
    await busyFor(300);
    // 300 ms of work at a third of the time: 600 ms of rest, the first 50 of them forgiven.
    const second = request(BUSY, 10);
    await time.tickAsync(549);
    expect(second.started).toBe(false);
    await time.tickAsync(1);
    expect(second.started).toBe(true);
    await time.tickAsync(10);
    expect((await second.answer).status).toBe(200);
    other.end();
    await other.answer;
  });

  it("lets a client alone on the server go on at once", async () => {
    const { time, request, busyFor } = limiterWith(1 / 3);
    await busyFor(300);
    const second = request(BUSY, 10);
    await time.tickAsync(0);
    expect(second.started).toBe(true);
  });

  it("never makes a light client wait", async () => {
    const { time, request, otherServed } = limiterWith(1 / 3);
    const other = otherServed();
    for (let call = 0; call < 5; call++) {
      const light = request(BUSY, 5);
      await time.tickAsync(0);
      expect(light.started).toBe(true);
      await time.tickAsync(5);
      await light.answer;
    }
    other.end();
  });

  it("counts a client seen within the last second as being served", async () => {
    const { time, request, busyFor } = limiterWith(1 / 3);
    const others = request(OTHER, 1);
    await time.tickAsync(1);
    await others.answer;
    await busyFor(300);
    // The other client was last seen 300 ms ago: the server is still shared.
    const second = request(BUSY, 10);
    await time.tickAsync(0);
    expect(second.started).toBe(false);
  });

  it("is off at a share of 1", async () => {
    const { time, request, busyFor, otherServed } = limiterWith(1);
    const other = otherServed();
    await busyFor(300);
    const second = request(BUSY, 10);
    await time.tickAsync(0);
    expect(second.started).toBe(true);
    other.end();
  });

  it("does not work on a request whose client went away while it rested", async () => {
    const { time, request, busyFor, otherServed } = limiterWith(1 / 3);
    const other = otherServed();
    await busyFor(300);
    const gone = new AbortController();
    const second = request(BUSY, 10, gone.signal);
    await time.tickAsync(100);
    gone.abort();
    expect((await second.answer).status).toBe(503);
    expect(second.started).toBe(false);
    expect(time.pending()).toBe(0);
    other.end();
  });
});
