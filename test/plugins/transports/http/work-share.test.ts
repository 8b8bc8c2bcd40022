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
  const request = (client: string, ms: number, signal = never, own = "") => {
    let started = false;
    const answer = limiter.run(client, own, signal, () => {
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
    const answer = limiter.run(OTHER, "", never, () => done);
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

// Issue 47, item 5: many users behind one address (a NAT, a proxy) are one client; its parts
// (MCP sessions, else connections) share its places and its time among themselves.
describe("the parts of one client", () => {
  it("start a light part's request at once beside a greedy part holding the client's places", async () => {
    const { time, request } = limiterWith(1 / 3);
    const greedy = [1, 2, 3, 4].map(() => request(BUSY, 1000, never, "greedy"));
    await time.tickAsync(0);
    expect(greedy.map((job) => job.started)).toEqual([true, true, false, false]);
    const light = request(BUSY, 3, never, "light");
    await time.tickAsync(0);
    expect(light.started).toBe(true);
    await time.tickAsync(3);
    expect((await light.answer).status).toBe(200);
    // The greedy part's others still wait for the client's own places.
    expect(greedy.map((job) => job.started)).toEqual([true, true, false, false]);
    await time.tickAsync(3000);
  });

  it("make a part that was worked on rest while another part of the client is served", async () => {
    const { time, request } = limiterWith(1 / 3);
    const first = request(BUSY, 300, never, "greedy");
    const light = request(BUSY, 1, never, "light");
    await time.tickAsync(300);
    await Promise.all([first.answer, light.answer]);
    // Another part was seen within the second: 600 ms of rest, the first 50 forgiven.
    const second = request(BUSY, 10, never, "greedy");
    await time.tickAsync(549);
    expect(second.started).toBe(false);
    // The light part meanwhile is not made to wait for the greedy part's rest.
    const again = request(BUSY, 1, never, "light");
    await time.tickAsync(0);
    expect(again.started).toBe(true);
    await time.tickAsync(1);
    expect(second.started).toBe(true);
    await time.tickAsync(10);
  });

  it("give no place past the client's own to a part whose last request was heavy", async () => {
    const { time, request } = limiterWith(1);
    const heavy = request(BUSY, 300, never, "heavy");
    await time.tickAsync(300);
    await heavy.answer;
    const holding = [1, 2].map((part) => request(BUSY, 1000, never, `holder-${part}`));
    const again = request(BUSY, 10, never, "heavy");
    const light = request(BUSY, 10, never, "light");
    await time.tickAsync(0);
    expect([...holding, again, light].map((job) => job.started)).toEqual([true, true, false, true]);
    await time.tickAsync(3000);
  });

  it("never take more than twice the client's places, however many parts it opens", async () => {
    const { time, request } = limiterWith(1 / 3);
    const parts = [1, 2, 3, 4, 5, 6].map((part) => request(BUSY, 1000, never, `part-${part}`));
    await time.tickAsync(0);
    expect(parts.filter((job) => job.started)).toHaveLength(4);
    await time.tickAsync(5000);
  });
});
