import pLimit, { type LimitFunction } from "p-limit";
import { mcpError, onSettled } from "./respond.js";

export interface WorkLimits {
  /** MCP requests being answered at once, over every client. */
  readonly maxWorkInFlight: number;
  /** MCP requests being answered at once for one client; its others wait their turn. */
  readonly maxWorkPerClient: number;
  /** MCP requests of one client waiting their turn; one more is refused with 429. */
  readonly maxWorkQueuedPerClient: number;
}

/** One client's own limiter, and how many of its requests it holds (running or waiting). */
interface ClientLane {
  readonly limit: LimitFunction;
  held: number;
}

/**
 * Bounds the work MCP requests make, per client and in total. A request runs when its client has
 * a place of its own and the server one in total; until its answer is sent in full it keeps both.
 * A client past its places waits in its own line, so one greedy client fills only its line and
 * everyone else still gets a place at once; a client whose line is full is told 429 at once.
 */
export class WorkLimiter {
  readonly #total: LimitFunction;
  readonly #lanes = new Map<string, ClientLane>();

  constructor(private readonly limits: WorkLimits) {
    this.#total = pLimit(limits.maxWorkInFlight);
  }

  /**
   * Answer with `work` once `client` may; its places are given back when the answer has been sent.
   * A request whose client went away while it waited (`signal` aborted) is not worked on.
   */
  run(client: string, signal: AbortSignal, work: () => Promise<Response>): Promise<Response> {
    let lane = this.#lanes.get(client);
    if (lane && lane.limit.pendingCount >= this.limits.maxWorkQueuedPerClient) {
      const { maxWorkPerClient, maxWorkQueuedPerClient } = this.limits;
      return Promise.resolve(
        mcpError(
          429,
          `Too many requests from this client at once (${maxWorkPerClient} being answered, ${maxWorkQueuedPerClient} waiting); wait for answers before sending more`,
          { "retry-after": "1" },
        ),
      );
    }
    if (!lane) this.#lanes.set(client, (lane = { limit: pLimit(this.limits.maxWorkPerClient), held: 0 }));
    const own = lane;
    own.held++;
    const give = () => {
      own.held--;
      if (own.held === 0 && this.#lanes.get(client) === own) this.#lanes.delete(client);
    };
    return new Promise<Response>((resolve, reject) => {
      void own.limit(() =>
        this.#total(
          () =>
            new Promise<void>((release) => {
              const done = () => {
                release();
                give();
              };
              const answer = signal.aborted ? Promise.resolve(mcpError(503, "the client went away before its turn")) : work();
              answer.then(
                (response) => resolve(onSettled(response, done)),
                (error: unknown) => {
                  done();
                  reject(error);
                },
              );
            }),
        ),
      );
    });
  }
}
