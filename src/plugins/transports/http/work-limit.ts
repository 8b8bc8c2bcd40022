import pLimit, { type LimitFunction } from "p-limit";
import { systemClock, type Clock } from "../../../kernel/clock.js";
import { mcpError, onSettled } from "./respond.js";

export interface WorkLimits {
  /** MCP requests being answered at once, over every client. */
  readonly maxWorkInFlight: number;
  /** MCP requests being answered at once for one client; its others wait their turn. */
  readonly maxWorkPerClient: number;
  /** MCP requests of one client waiting their turn; one more is refused with 429. */
  readonly maxWorkQueuedPerClient: number;
  /** While other clients are being served, the share of the time one client's requests may be worked on (1: no limit). */
  readonly maxWorkShare: number;
}

/** One client's own limiter, and how many of its requests it holds (running or waiting). */
interface ClientLane {
  readonly limit: LimitFunction;
  held: number;
}

/** Rest a client owes, in ms, as it stood at `at`: it pays it off one ms a ms. */
interface Owed {
  readonly rest: number;
  readonly at: number;
}

type Seen = readonly [client: string, at: number];

/** Rest a client may owe and still start at once: a light client's requests never wait. */
const OWED_BEFORE_REST_MS = 50;
/** Another client served this recently means the server is shared, and shares apply. */
const SHARED_WITHIN_MS = 1000;
/** Accounts past this many are swept of the paid-off ones. */
const SWEEP_ACCOUNTS_AT = 1000;

/**
 * Bounds the work MCP requests make, per client and in total. A request runs when its client has
 * a place of its own and the server one in total; until its answer is sent in full it keeps both.
 * A client past its places waits in its own line, so one greedy client fills only its line and
 * everyone else still gets a place at once; a client whose line is full is told 429 at once.
 *
 * Places bound how much runs at once, not how long: a client whose requests each hold the one
 * event loop for a while would still have it most of the time. So while other clients are being
 * served, a client that was worked on for `d` ms rests `d × (1 − share) / share` ms before its
 * next request starts, and requests that arrive while the loop is free find it free.
 */
export class WorkLimiter {
  readonly #total: LimitFunction;
  readonly #lanes = new Map<string, ClientLane>();
  readonly #owed = new Map<string, Owed>();
  /** The last two different clients to start or finish a request, the latest first, with when. */
  #recent: Seen[] = [];

  constructor(
    private readonly limits: WorkLimits,
    private readonly clock: Clock = systemClock,
  ) {
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
    this.#seen(client);
    const give = () => {
      own.held--;
      if (own.held === 0 && this.#lanes.get(client) === own) this.#lanes.delete(client);
    };
    return new Promise<Response>((resolve, reject) => {
      void own.limit(async () => {
        await this.#rest(client, signal);
        return this.#total(
          () =>
            new Promise<void>((release) => {
              const started = this.clock.now();
              const done = () => {
                release();
                this.#charge(client, this.clock.now() - started);
                give();
              };
              const answer = signal.aborted
                ? Promise.resolve(mcpError(503, "the client went away before its turn"))
                : work();
              answer.then(
                (response) => resolve(onSettled(response, done)),
                (error: unknown) => {
                  done();
                  reject(error);
                },
              );
            }),
        );
      });
    });
  }

  /** Waits out what `client` owes past its allowance, while the server is shared. */
  async #rest(client: string, signal: AbortSignal): Promise<void> {
    const rest = this.#owedBy(client) - OWED_BEFORE_REST_MS;
    if (rest <= 0 || signal.aborted || !this.#shared(client)) return;
    await new Promise<void>((resolve) => {
      const timer = this.clock.setTimeout(finish, rest);
      function finish() {
        signal.removeEventListener("abort", stop);
        resolve();
      }
      const stop = () => {
        this.clock.clearTimeout(timer);
        finish();
      };
      signal.addEventListener("abort", stop, { once: true });
    });
  }

  /** Adds the rest owed for `workedMs` of work to what `client` owes. */
  #charge(client: string, workedMs: number): void {
    this.#seen(client);
    const { maxWorkShare } = this.limits;
    if (maxWorkShare >= 1) return;
    if (this.#owed.size >= SWEEP_ACCOUNTS_AT) for (const other of this.#owed.keys()) this.#owedBy(other);
    this.#owed.set(client, {
      rest: this.#owedBy(client) + (workedMs * (1 - maxWorkShare)) / maxWorkShare,
      at: this.clock.now(),
    });
  }

  /** What `client` owes now; a paid-off account is dropped. */
  #owedBy(client: string): number {
    const owed = this.#owed.get(client);
    if (!owed) return 0;
    const rest = owed.rest - (this.clock.now() - owed.at);
    if (rest > 0) return rest;
    this.#owed.delete(client);
    return 0;
  }

  #seen(client: string): void {
    const now = this.clock.now();
    this.#recent = [[client, now] as Seen, ...this.#recent.filter(([other]) => other !== client)].slice(0, 2);
  }

  /** Whether another client has a request in flight or waiting, or had one lately. */
  #shared(client: string): boolean {
    if (this.#lanes.size > (this.#lanes.has(client) ? 1 : 0)) return true;
    const other = this.#recent.find(([seen]) => seen !== client);
    return other !== undefined && this.clock.now() - other[1] < SHARED_WITHIN_MS;
  }
}
