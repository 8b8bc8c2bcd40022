import { Buffer } from "node:buffer";
import { LRUCache } from "lru-cache";
import type { Cache } from "../kernel/cache.js";
import { systemClock, type Clock } from "../kernel/clock.js";
import { HttpError, redact, type HttpClient } from "./http.js";

/** What the cache keeps of a document that may change. */
interface Revalidated {
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly body: string;
  readonly fetchedAt: number;
  readonly [key: string]: string | number | null;
}

export interface FetchedDocument {
  readonly body: Uint8Array;
  /** Served from the cache because the server failed (stale-if-error). */
  readonly stale: boolean;
  /** Why it is stale. */
  readonly error?: string;
  /** When the server last gave or confirmed this copy (ms since the epoch), for a stale one. */
  readonly fetchedAt?: number;
}

export interface DocumentRequest {
  readonly maxBytes: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** Kept this long whatever the freshness: a stale copy is what a failing server leaves us. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
/** These say the document is gone: serving an old copy would hide that. */
const GONE = new Set([404, 410]);
/** How long a document known gone is not asked for again (a revalidated one: no longer than its TTL). */
const GONE_MEMORY_MS = 5 * 60 * 1000;
/** Gone documents remembered at once, per source. */
const GONE_MEMORY_ENTRIES = 10_000;

/**
 * Every byte a remote source fetches goes through here, and through the cache: documents that
 * may change (a catalog, a branch's head) are fresh for a TTL, then revalidated with their ETag
 * (a 304 costs no body, and on GitHub no rate limit); documents named by a commit or a content
 * hash are fetched once and kept.
 */
export class RemoteDocuments {
  /**
   * URLs that answered 404 or 410, with that status: asked again only once remembered long
   * enough, so a catalog listing thousands of missing SKILL.md files costs one request each per
   * while, not one per tool call.
   */
  readonly #gone = new LRUCache<string, number>({ max: GONE_MEMORY_ENTRIES });

  constructor(
    private readonly http: HttpClient,
    private readonly cache: Cache,
    private readonly clock: Pick<Clock, "now"> = systemClock,
  ) {}

  /** The status `url` is remembered gone with, thrown again; else `fetch`, a gone answer remembered for `ms`. */
  async #unlessGone<T>(url: string, ms: number, fetch: () => Promise<T>): Promise<T> {
    const status = this.#gone.get(url);
    if (status !== undefined) throw statusError(url, status);
    try {
      return await fetch();
    } catch (error) {
      if (ms > 0 && error instanceof HttpError && GONE.has(error.status ?? 0)) {
        this.#gone.set(url, error.status!, { ttl: ms });
      }
      throw error;
    }
  }

  /**
   * `url`'s body: from the cache while younger than `ttlMs`, else asked for again with
   * If-None-Match / If-Modified-Since. If the server fails (unreachable, 5xx, rate-limited) and a
   * copy is cached, that copy, marked stale.
   */
  revalidated(url: string, ttlMs: number, request: DocumentRequest): Promise<FetchedDocument> {
    return this.#unlessGone(url, Math.min(ttlMs, GONE_MEMORY_MS), () => this.#revalidated(url, ttlMs, request));
  }

  async #revalidated(url: string, ttlMs: number, request: DocumentRequest): Promise<FetchedDocument> {
    const key = `doc:${url}`;
    const cached = asRevalidated(await this.cache.get(key), this.clock.now());
    if (cached && this.clock.now() - cached.fetchedAt < ttlMs) return { body: decode(cached.body), stale: false };
    const conditional: Record<string, string> = { ...request.headers };
    if (cached?.etag) conditional["if-none-match"] = cached.etag;
    if (cached?.lastModified) conditional["if-modified-since"] = cached.lastModified;
    try {
      const response = await this.http.get(url, { ...request, headers: conditional });
      if (response.status === 304 && cached) {
        await this.cache.set(key, { ...cached, fetchedAt: this.clock.now() }, KEEP_MS);
        return { body: decode(cached.body), stale: false };
      }
      if (response.status !== 200) throw statusError(url, response.status);
      const entry: Revalidated = {
        etag: response.headers.get("etag"),
        lastModified: response.headers.get("last-modified"),
        body: Buffer.from(response.body).toString("base64"),
        fetchedAt: this.clock.now(),
      };
      await this.cache.set(key, entry, KEEP_MS);
      return { body: response.body, stale: false };
    } catch (error) {
      if (request.signal?.aborted || !cached || (error instanceof HttpError && GONE.has(error.status ?? 0)))
        throw error;
      return {
        body: decode(cached.body),
        stale: true,
        error: error instanceof Error ? error.message : String(error),
        fetchedAt: cached.fetchedAt,
      };
    }
  }

  /** A document that never changes once published: fetched once under `key`, then always cached. */
  async immutable(key: string, url: string, request: DocumentRequest): Promise<Uint8Array> {
    return this.#unlessGone(url, GONE_MEMORY_MS, () => this.#immutable(key, url, request));
  }

  async #immutable(key: string, url: string, request: DocumentRequest): Promise<Uint8Array> {
    const cached = await this.cache.get(`immutable:${key}`);
    if (typeof cached === "string" && BASE64.test(cached)) return decode(cached);
    const response = await this.http.get(url, request);
    if (response.status !== 200) throw statusError(url, response.status);
    await this.cache.set(`immutable:${key}`, Buffer.from(response.body).toString("base64"), KEEP_MS);
    return response.body;
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A cache entry checked like an answer from the network: anyone with access to the cache could have written it. */
function asRevalidated(value: unknown, now: number): Revalidated | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { etag, lastModified, body, fetchedAt } = value as Partial<Revalidated>;
  const header = (text: unknown) =>
    text === null || (typeof text === "string" && text.length <= 1024 && !/[\r\n\0]/.test(text));
  if (!header(etag) || !header(lastModified) || typeof body !== "string" || !BASE64.test(body)) return undefined;
  if (typeof fetchedAt !== "number" || !(fetchedAt <= now)) return undefined;
  return { etag: etag!, lastModified: lastModified!, body, fetchedAt };
}

function statusError(url: string, status: number): HttpError {
  return new HttpError(`GET ${redact(url)} answered ${status}`, false, status);
}

function decode(base64: string): Uint8Array {
  const buffer = Buffer.from(base64, "base64");
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
