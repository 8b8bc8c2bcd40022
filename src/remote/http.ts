import pLimit, { type LimitFunction } from "p-limit";
import pRetry from "p-retry";
import { PrivateAddressError, type AddressGuard } from "./address-guard.js";
import { guardedFetch } from "./guarded-fetch.js";
import { VERSION } from "../version.js";
import { MAX_REDIRECTS, privateRefusal, REDIRECT_STATUS, redirectRefusal } from "./redirects.js";

/**
 * HTTP for remote skill sources: Node's, Bun's and Deno's built-in fetch, with what an unreliable
 * and untrusted server calls for: a timeout per attempt, retries with exponential backoff and full
 * jitter, a bound on requests in flight, and caps on what one answer and one source may download.
 */

export interface HttpSettings {
  /** Names the source in errors. */
  readonly name: string;
  /** One attempt, headers and body, may take this long. */
  readonly timeoutMs: number;
  /** Attempts after the first for a network error, a timeout, a 5xx or a 429. */
  readonly retries: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** The most one source may download between two loads (see resetBudget). */
  readonly maxTotalBytes: number;
  /** Sent with every request to `home` (a token, a user agent). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The origin `headers` belong to. A source that fetches URLs a remote document names (a
   * discovery index's artifacts) sets its catalog's: a token then goes to that origin and
   * `headerHosts` alone, and such a URL on a private or loopback address is refused as a redirect
   * there would be. Unset: each request's own origin (every URL it is given comes from the config).
   */
  readonly home?: string;
  /** Hosts (`cdn.example.com`, or with a port) `headers` go to besides `home`; never over http from an https home. */
  readonly headerHosts?: readonly string[];
  /** The first retry waits up to this long, each next one up to twice as long. */
  readonly backoffMs?: number;
  /** Called before each attempt: throws to refuse it (a rate limit known to be spent). */
  readonly guard?: (url: string) => void;
  /** Sees every answer's status and headers (rate-limit bookkeeping); throws to fail the request. */
  readonly observe?: (url: string, status: number, headers: Headers) => void;
  /** Hosts a redirect may lead to besides the requested URL's own origin (see redirectRefusal). */
  readonly redirectHosts?: readonly string[];
  /** Connect only to addresses outside the firewall, checked as each connection opens (see guardedFetch). */
  readonly addressGuard?: AddressGuard;
}

/** One GET through an HttpClient: extra headers, the size cap and a way to give up. */
export interface HttpRequest {
  /** Headers for this request alone, over the client's (an `accept`, an `if-none-match`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A larger body is refused (an HttpError), never read whole. */
  readonly maxBytes: number;
  /** Aborts the request and any retry still to come. */
  readonly signal?: AbortSignal;
}

/** A server's answer, body read whole (within `maxBytes`): any status, once retries are spent. */
export interface HttpResponse {
  /** The HTTP status; a 4xx or 5xx is an answer too, for the caller to judge. */
  readonly status: number;
  /** The answer's headers (an ETag, a Retry-After, a rate limit's). */
  readonly headers: Headers;
  /** The whole body, at most the request's `maxBytes`. */
  readonly body: Uint8Array;
}

/** The server could not be reached or answered in a way no caller can use. */
export class HttpError extends Error {
  constructor(
    message: string,
    /** Worth another attempt (a network failure, a timeout, a cut body), as opposed to a refusal. */
    readonly retryable: boolean,
    /** The answer's HTTP status when there was one (an unusable status, a refused redirect, 413 for a body over its cap). */
    readonly status?: number,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** Sent to every origin, unless `headers` names another for `home`. */
const USER_AGENT = `skills-kernel/${VERSION}`;
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const DEFAULT_BACKOFF_MS = 250;
/** A Retry-After longer than this is not waited for: the source fails now and keeps its cache. */
const MAX_RETRY_AFTER_MS = 10_000;

/** An answer whose status is worth another attempt: carried through p-retry as a failure. */
class RetryableStatus extends Error {
  constructor(readonly response: HttpResponse) {
    super(`HTTP ${response.status}`);
  }
}

/**
 * The HTTP a remote source fetches with (see HttpSettings): timeouts, retries with backoff, a bound
 * on requests in flight and on bytes downloaded, redirects and addresses checked. A source makes one.
 */
export class HttpClient {
  readonly #limit: LimitFunction;
  #downloaded = 0;

  constructor(private readonly settings: HttpSettings) {
    this.#limit = pLimit(settings.concurrency);
  }

  /** A new load starts: the download budget starts again. */
  resetBudget(): void {
    this.#downloaded = 0;
  }

  /**
   * GET `url`. Any status comes back as a response, after retries for the retryable ones;
   * a network failure, a timeout, a truncated or oversized body is an HttpError.
   */
  async get(url: string, request: HttpRequest): Promise<HttpResponse> {
    const backoff = this.settings.backoffMs ?? DEFAULT_BACKOFF_MS;
    // p-retry runs the attempts; the wait before each retry is decided here (full jitter, or the
    // server's Retry-After), so p-retry's own delay is zero.
    let wait = 0;
    try {
      return await pRetry(
        async (attemptNumber) => {
          if (attemptNumber > 1) await sleep(wait, request.signal);
          const response = await this.#limit(() => this.#attempt(url, request));
          if (RETRYABLE_STATUS.has(response.status)) throw new RetryableStatus(response);
          return response;
        },
        {
          retries: this.settings.retries,
          minTimeout: 0,
          signal: request.signal,
          shouldRetry: ({ error, retriesConsumed }) => {
            if (request.signal?.aborted) return false;
            if (error instanceof RetryableStatus) {
              const retryAfter = retryAfterMs(error.response.headers);
              // A Retry-After longer than MAX_RETRY_AFTER_MS is not waited for: the answer stands.
              if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return false;
              wait = retryAfter ?? jitter(backoff, retriesConsumed);
              return true;
            }
            if (!(error instanceof HttpError) || !error.retryable) return false;
            wait = jitter(backoff, retriesConsumed);
            return true;
          },
        },
      );
    } catch (error) {
      // Out of retries, or not to be retried: a retryable status is still an answer.
      if (error instanceof RetryableStatus) return error.response;
      throw error;
    }
  }

  async #attempt(url: string, request: HttpRequest): Promise<HttpResponse> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const where = `${this.settings.name}: GET ${redact(url)}`;
    this.settings.guard?.(url);
    const response = await this.#follow(url, request, signal, where, timeout);
    try {
      this.settings.observe?.(url, response.status, response.headers);
    } catch (error) {
      await response.body?.cancel();
      throw error;
    }
    try {
      const body = await this.#readBody(response, request.maxBytes, where);
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const why = timeout.aborted
        ? `the body did not arrive within ${this.settings.timeoutMs} ms`
        : `the body was cut short (${causeOf(error)})`;
      throw new HttpError(`${where}: ${why}`, true);
    }
  }

  /**
   * The answer to `url`, redirects followed by hand: only where redirectRefusal allows, and the
   * configured headers (tokens, API keys) only ever to `home` (or `url`'s own origin) and headerHosts.
   */
  async #follow(
    url: string,
    request: HttpRequest,
    signal: AbortSignal,
    where: string,
    timeout: AbortSignal,
  ): Promise<Response> {
    const origin = new URL(url);
    const home = this.settings.home === undefined ? origin : new URL(this.settings.home);
    const foreign = origin.origin === home.origin ? undefined : privateRefusal(home, origin);
    if (foreign) throw new HttpError(`${where}: named by ${home.origin}, ${foreign}`, false);
    let current = origin;
    for (let hops = 0; ; hops++) {
      const headers = this.#headersFor(current, home, request);
      let response: Response;
      try {
        const guard = this.settings.addressGuard;
        response = guard
          ? await guardedFetch(current, headers, signal, guard)
          : await fetch(current, { headers, signal, redirect: "manual" });
      } catch (error) {
        if (error instanceof PrivateAddressError) throw new HttpError(`${where}: ${error.message}`, false);
        throw new HttpError(
          `${where}: ${timeout.aborted ? `no answer within ${this.settings.timeoutMs} ms` : causeOf(error)}`,
          true,
        );
      }
      const location = REDIRECT_STATUS.has(response.status) ? response.headers.get("location") : null;
      if (location === null) return response;
      await response.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new HttpError(`${where}: redirected to an invalid URL`, false, response.status);
      }
      if (hops >= MAX_REDIRECTS)
        throw new HttpError(`${where}: more than ${MAX_REDIRECTS} redirects`, false, response.status);
      const refusal = redirectRefusal(origin, next, this.settings.redirectHosts ?? []);
      if (refusal)
        throw new HttpError(`${where}: redirected to ${redact(next.href)}, ${refusal}`, false, response.status);
      current = next;
    }
  }

  /**
   * The configured headers for `home` and headerHosts (never a step down from https); the
   * request's own (accept, a conditional GET's validators) and the user agent everywhere.
   */
  #headersFor(url: URL, home: URL, request: HttpRequest): Record<string, string> {
    const named = this.settings.headerHosts ?? [];
    const own =
      url.origin === home.origin ||
      ((named.includes(url.host) || named.includes(url.hostname)) &&
        !(home.protocol === "https:" && url.protocol === "http:"));
    return { "user-agent": USER_AGENT, ...(own ? this.settings.headers : {}), ...request.headers };
  }

  /** The body, refused past `maxBytes` or past the source's budget without reading the rest. */
  async #readBody(response: Response, maxBytes: number, where: string): Promise<Uint8Array> {
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new HttpError(`${where}: the answer is ${declared} bytes, over the ${maxBytes} allowed`, false, 413);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        this.#downloaded += value.byteLength;
        if (size > maxBytes || this.#downloaded > this.settings.maxTotalBytes) {
          await reader.cancel();
          const why =
            size > maxBytes
              ? `the answer is over the ${maxBytes} bytes allowed`
              : `the source has downloaded over its maxTotalBytes (${this.settings.maxTotalBytes})`;
          throw new HttpError(`${where}: ${why}`, false, 413);
        }
        chunks.push(value);
      }
    }
    // fetch reports a connection closed early as the end of the body when no length was declared;
    // a declared length says what should have come.
    if (Number.isFinite(declared) && size < declared && !response.headers.has("content-encoding")) {
      throw new HttpError(`${where}: the body was cut short (${size} of ${declared} bytes)`, true);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return body;
  }
}

/** Full jitter: many clients retrying after one outage do not come back all at once. */
function jitter(backoff: number, retriesBefore: number): number {
  return Math.random() * backoff * 2 ** retriesBefore;
}

/** Retry-After in milliseconds: seconds or an HTTP date. */
function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** fetch's "fetch failed" hides the reason in its cause (ECONNREFUSED, a DNS failure). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code ?? cause?.message ?? message;
}

/** A URL for a message: never its credentials or query string (tokens travel there). */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(an invalid URL)";
  }
}
