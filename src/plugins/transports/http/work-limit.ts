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

/**
 * A request's client going away: its AbortSignal, or (node:http's GET and HEAD) whether it has
 * gone and a signal made only when a wait needs one.
 */
export type Departure = AbortSignal | { readonly aborted: boolean; readonly signal: AbortSignal };

/** One client's places and line: requests running (or resting) and waiting, by whose they are. */
interface ClientLane {
  running: number;
  readonly runningBy: Map<string, number>;
  readonly waiting: { readonly own: string; readonly begin: () => void }[];
  /** Its requests running or waiting. */
  held: number;
}

/** Rest a client owes, in ms, as it stood at `at`: it pays it off one ms a ms. */
interface Owed {
  readonly rest: number;
  readonly at: number;
}

type Seen = readonly [who: string, at: number];

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
 *
 * A client is an address (or a signed-in subject), and many users may share one behind a NAT or a
 * proxy: its parts (MCP sessions, else connections) share its places and its time among
 * themselves the same way. A part worked on while another part of it is served rests for its own
 * work alone, and a part that owes no rest and runs nothing may take one of as many places again,
 * so a light user is not queued behind a greedy neighbour's requests. The client's own bounds
 * (its line, its share beside other clients) hold whatever its parts.
 */
export class WorkLimiter {
  readonly #total: LimitFunction;
  readonly #lanes = new Map<string, ClientLane>();
  readonly #owed = new Map<string, Owed>();
  /** The last two different clients to start or finish a request, the latest first, with when. */
  #recent: Seen[] = [];
  /** The same of each client's parts (sessions, connections), kept a while after its lane is gone. */
  readonly #recentParts = new Map<string, Seen[]>();
  /** How long each part's last request was worked on, and when it ended. */
  readonly #lastWorked = new Map<string, { readonly ms: number; readonly at: number }>();

  constructor(
    private readonly limits: WorkLimits,
    private readonly clock: Clock = systemClock,
  ) {
    this.#total = pLimit(limits.maxWorkInFlight);
  }

  /**
   * Answer with `work` once `client` may, for its part `own` (a session, a connection); its places
   * are given back when the answer has been sent. A request whose client went away while it
   * waited (`gone` aborted) is not worked on.
   */
  run(client: string, own: string, gone: Departure, work: () => Promise<Response>): Promise<Response> {
    let lane = this.#lanes.get(client);
    if (lane && lane.waiting.length >= this.limits.maxWorkQueuedPerClient) {
      const { maxWorkPerClient, maxWorkQueuedPerClient } = this.limits;
      return Promise.resolve(
        mcpError(
          429,
          `Too many requests from this client at once (${maxWorkPerClient} being answered, ${maxWorkQueuedPerClient} waiting); wait for answers before sending more`,
          { "retry-after": "1" },
        ),
      );
    }
    if (!lane) this.#lanes.set(client, (lane = { running: 0, runningBy: new Map(), waiting: [], held: 0 }));
    const at = lane;
    const part = partOf(client, own);
    at.held++;
    this.#seen(client, own);
    const give = () => {
      at.running--;
      const left = (at.runningBy.get(own) ?? 1) - 1;
      if (left === 0) at.runningBy.delete(own);
      else at.runningBy.set(own, left);
      at.held--;
      if (at.held === 0 && this.#lanes.get(client) === at) this.#lanes.delete(client);
      else this.#next(at, client);
    };
    return new Promise<Response>((resolve, reject) => {
      const begin = async () => {
        at.running++;
        at.runningBy.set(own, (at.runningBy.get(own) ?? 0) + 1);
        try {
          await this.#rest(client, at, own, gone);
        } catch (error) {
          give();
          return reject(error);
        }
        void this.#total(
          () =>
            new Promise<void>((release) => {
              const started = this.clock.now();
              const done = () => {
                release();
                const worked = this.clock.now() - started;
                this.#charge(client, worked);
                this.#charge(part, worked);
                this.#worked(part, worked);
                this.#seen(client, own);
                give();
              };
              const answer = gone.aborted
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
      };
      at.waiting.push({ own, begin: () => void begin() });
      this.#next(at, client);
    });
  }

  /**
   * Starts what `lane` may start now: the first waiting while it is under its places, then, up to
   * as many places again, those of parts that run nothing, owe no rest and whose last request
   * was light (a light user; a part's first request is taken as light).
   */
  #next(lane: ClientLane, client: string): void {
    const { maxWorkPerClient } = this.limits;
    for (let index = 0; index < lane.waiting.length; ) {
      const { own, begin } = lane.waiting[index]!;
      const light =
        lane.running < 2 * maxWorkPerClient &&
        !lane.runningBy.has(own) &&
        this.#owedBy(partOf(client, own)) <= OWED_BEFORE_REST_MS &&
        this.#wasLight(partOf(client, own));
      if (lane.running < maxWorkPerClient || light) {
        lane.waiting.splice(index, 1);
        begin();
      } else {
        index++;
      }
    }
  }

  /**
   * Waits out what `client` owes past its allowance while another client is served, and what its
   * part `own` owes while another part of it is.
   */
  async #rest(client: string, lane: ClientLane, own: string, gone: Departure): Promise<void> {
    const owed = (account: string, shared: boolean) => (shared ? this.#owedBy(account) - OWED_BEFORE_REST_MS : 0);
    const rest = Math.max(
      owed(client, this.#shared(client)),
      owed(partOf(client, own), this.#sharedWithin(client, lane, own)),
    );
    if (rest <= 0 || gone.aborted) return;
    const signal = gone instanceof AbortSignal ? gone : gone.signal;
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

  /** Adds the rest owed for `workedMs` of work to what `account` (a client, or a part of one) owes. */
  #charge(account: string, workedMs: number): void {
    const { maxWorkShare } = this.limits;
    if (maxWorkShare >= 1) return;
    if (this.#owed.size >= SWEEP_ACCOUNTS_AT) for (const other of this.#owed.keys()) this.#owedBy(other);
    this.#owed.set(account, {
      rest: this.#owedBy(account) + (workedMs * (1 - maxWorkShare)) / maxWorkShare,
      at: this.clock.now(),
    });
  }

  /** Whether `part`'s last request was worked on for no longer than a light one (a first one is). */
  #wasLight(part: string): boolean {
    return (this.#lastWorked.get(part)?.ms ?? 0) <= OWED_BEFORE_REST_MS;
  }

  /** Records how long `part`'s last request was worked on; records past SHARED_WITHIN_MS are swept. */
  #worked(part: string, ms: number): void {
    const now = this.clock.now();
    if (this.#lastWorked.size >= SWEEP_ACCOUNTS_AT && !this.#lastWorked.has(part)) {
      for (const [other, last] of this.#lastWorked)
        if (now - last.at >= SHARED_WITHIN_MS) this.#lastWorked.delete(other);
    }
    this.#lastWorked.set(part, { ms, at: now });
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

  #seen(client: string, own: string): void {
    const now = this.clock.now();
    this.#recent = seen(this.#recent, client, now);
    if (this.#recentParts.size >= SWEEP_ACCOUNTS_AT && !this.#recentParts.has(client)) {
      for (const [other, parts] of this.#recentParts)
        if (now - parts[0]![1] >= SHARED_WITHIN_MS) this.#recentParts.delete(other);
    }
    this.#recentParts.set(client, seen(this.#recentParts.get(client) ?? [], own, now));
  }

  /** Whether another client has a request in flight or waiting, or had one lately. */
  #shared(client: string): boolean {
    if (this.#lanes.size > (this.#lanes.has(client) ? 1 : 0)) return true;
    const other = this.#recent.find(([seen]) => seen !== client);
    return other !== undefined && this.clock.now() - other[1] < SHARED_WITHIN_MS;
  }

  /** Whether another part of `client` has a request running or waiting, or had one lately. */
  #sharedWithin(client: string, lane: ClientLane, own: string): boolean {
    if (lane.runningBy.size > (lane.runningBy.has(own) ? 1 : 0)) return true;
    if (lane.waiting.some((waiting) => waiting.own !== own)) return true;
    const other = this.#recentParts.get(client)?.find(([seen]) => seen !== own);
    return other !== undefined && this.clock.now() - other[1] < SHARED_WITHIN_MS;
  }
}

/** `recent` with `who` seen `at`, first: the last two different ones. */
function seen(recent: readonly Seen[], who: string, at: number): Seen[] {
  // `recent` holds two different ones at most, so the other one kept is whichever is not `who`.
  const other = recent[0]?.[0] === who ? recent[1] : recent[0];
  return other === undefined ? [[who, at]] : [[who, at], other];
}

/** The account of a client's part (a session, a connection): apart from every client's own. */
function partOf(client: string, own: string): string {
  return `${client}\u0000${own}`;
}
