import { createHash } from "node:crypto";
import type { Cache, JsonValue } from "../../../kernel/cache.js";

/** One version of one file of a skill: what its facts (digest, frontmatter) are kept under. */
export interface FileVersion {
  /** The source's name and where it reads from (its description): two servers sharing a cache never mix. */
  readonly source: string;
  readonly skillPath: string;
  /** Relative to the skill folder; "SKILL.md" for the skill's own document. */
  readonly file: string;
  readonly size: number;
  /** Undefined when the source cannot tell: then nothing tells versions apart, and nothing is kept. */
  readonly mtimeMs?: number;
}

/** Facts held in memory at most; the oldest go first. A catalog of 10,000 skills needs about 40,000. */
const MAX_REMEMBERED = 100_000;

/** A fact is true for its version forever; a long TTL only lets the shared cache forget unused ones. */
const SHARED_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What was computed from one version of a file (its digest; for a SKILL.md, its frontmatter too),
 * so that it is computed once per version rather than on every listing. Kept in memory and, when
 * a cache service is configured, in it as well, so a restarted server (or a second one sharing a
 * Redis cache) does not hash the same bytes again.
 */
export class FileFacts {
  readonly #memory = new Map<string, JsonValue>();

  constructor(private readonly shared: Cache | undefined) {}

  async get<T extends JsonValue>(kind: string, version: FileVersion): Promise<T | undefined> {
    const key = keyOf(kind, version);
    if (key === undefined) return undefined;
    const held = this.#memory.get(key);
    if (held !== undefined) return held as T;
    const stored = await this.shared?.get<T>(key);
    if (stored !== undefined) this.#remember(key, stored);
    return stored;
  }

  async set(kind: string, version: FileVersion, value: JsonValue): Promise<void> {
    const key = keyOf(kind, version);
    if (key === undefined) return;
    this.#remember(key, value);
    await this.shared?.set(key, value, SHARED_TTL_MS);
  }

  #remember(key: string, value: JsonValue): void {
    this.#memory.delete(key);
    this.#memory.set(key, value);
    if (this.#memory.size > MAX_REMEMBERED) this.#memory.delete(this.#memory.keys().next().value!);
  }
}

/** A short fixed-length key: paths can be long, and a shared cache stores every key. */
function keyOf(kind: string, version: FileVersion): string | undefined {
  if (version.mtimeMs === undefined) return undefined;
  const identity = JSON.stringify([
    kind,
    version.source,
    version.skillPath,
    version.file,
    version.size,
    version.mtimeMs,
  ]);
  return `${kind}:${createHash("sha256").update(identity).digest("base64url")}`;
}

/** `sha256:{hex}`, the digest format of the skills extension. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}
