import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { Cache } from "../../../kernel/cache.js";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { EmbeddingsProvider } from "../ranker-hybrid/index.js";
import type { SavedIndexes } from "../../tools/search-skills/index.js";

/** Bytes of a text's digest that key its vector. */
const KEY_BYTES = 16;

/** A text's key: a digest of fixed length whatever the text. */
export function textKey(text: string): string {
  return createHash("sha256")
    .update(text)
    .digest("hex")
    .slice(0, KEY_BYTES * 2);
}

export interface SkillVectorsSettings {
  /** Texts per model call while skills are embedded in the background. */
  readonly batchSize: number;
  /** The vector length the model gives (checked again on whatever is read back). */
  readonly dimensions: number;
}

/**
 * The vectors of every skill text seen, shared by the semantic ranker and its copies: loaded from
 * the cache folder's file and the shared cache (Redis) when the model is ready, the rest embedded
 * in the background a batch at a time, then written back to both, so that a warm start embeds
 * nothing. Whatever is read back is untrusted: a file or entry of another length or of non-finite
 * numbers is ignored.
 */
export class SkillVectors {
  readonly #byKey = new Map<string, Float32Array>();
  #model: EmbeddingsProvider | undefined;
  /** "loading" until the model is ready or known to be unavailable. */
  #state: "loading" | "ready" | "unavailable" = "loading";
  readonly #pending = new Map<string, string>();
  #work: Promise<void> = Promise.resolve();
  #unsaved = false;
  readonly #closed = new AbortController();
  /** How many texts this process embedded (for the log and tests: a warm start embeds none). */
  embedded = 0;

  /** Loads the model at the first skills to embed: a command that never searches never loads it. */
  readonly #load: () => Promise<EmbeddingsProvider>;
  #started = false;

  constructor(
    load: () => Promise<EmbeddingsProvider>,
    private readonly settings: SkillVectorsSettings,
    private readonly logger: Logger,
    private readonly saved: SavedIndexes | undefined,
    private readonly shared: Cache | undefined,
  ) {
    this.#load = load;
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#work = this.#load().then(
      (ready) => {
        this.#model = ready;
        this.#loadSaved();
        this.#state = "ready";
        this.logger.debug(`model ${ready.description} ready, ${this.#byKey.size} vectors loaded from the cache folder`);
      },
      (error: unknown) => {
        this.#state = "unavailable";
        // One line, once: the ranker answers by words alone from here on.
        this.logger.warn(`${errorMessage(error)}; searching by words alone (bm25)`);
      },
    );
  }

  get state(): "loading" | "ready" | "unavailable" {
    return this.#state;
  }

  get(key: string): Float32Array | undefined {
    return this.#byKey.get(key);
  }

  /** Embeds in the background the texts (by key) that have no vector yet. */
  need(texts: ReadonlyMap<string, string>): void {
    this.#start();
    for (const [key, text] of texts) if (!this.#byKey.has(key)) this.#pending.set(key, text);
    this.#work = this.#work.then(() => this.#embedPending());
  }

  /** Settles once everything asked for so far is embedded (or cannot be). */
  async settled(): Promise<void> {
    let work: Promise<void>;
    do {
      work = this.#work;
      await work;
    } while (work !== this.#work);
  }

  /** A query's vector, or undefined when the model is not ready. */
  async embedQuery(query: string): Promise<Float32Array | undefined> {
    if (this.#state !== "ready") return undefined;
    const [vector] = await this.#model!.embed([query]);
    return vector;
  }

  close(): void {
    this.#closed.abort();
  }

  async #embedPending(): Promise<void> {
    if (this.#state !== "ready") return;
    const signal = this.#closed.signal;
    while (this.#pending.size > 0 && !signal.aborted) {
      const batch = [...this.#pending].slice(0, this.settings.batchSize);
      await this.#fromShared(batch.map(([key]) => key));
      const missing = batch.filter(([key]) => !this.#byKey.has(key));
      if (missing.length > 0) {
        try {
          const vectors = await this.#model!.embed(missing.map(([, text]) => text));
          missing.forEach(([key], i) => this.#byKey.set(key, vectors[i]!));
          this.embedded += missing.length;
          this.#unsaved = true;
          await this.#toShared(missing.map(([key]) => key));
        } catch (error) {
          this.logger.warn(`embedding skills failed, searching by words alone: ${errorMessage(error)}`);
          this.#state = "unavailable";
          return;
        }
      }
      for (const [key] of batch) this.#pending.delete(key);
      // Searches run between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Saved when done, and at a stop part-way: the next start takes up from there.
    if (this.#unsaved && (this.#pending.size === 0 || signal.aborted)) {
      this.logger.debug(`embedded ${this.embedded} skill texts in all`);
      await this.#save();
    }
  }

  /** The saved file's name in the cache folder: one per model. */
  #fileKey(): string {
    return `semantic-vectors:${this.#model!.description}:${this.settings.dimensions}`;
  }

  /** File layout: u32 count, u32 dimensions, count keys of KEY_BYTES, count × dimensions float32 (LE). */
  #loadSaved(): void {
    const bytes = this.saved?.load(this.#fileKey());
    if (!bytes || bytes.length < 8) return;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.readUInt32LE(0);
    const dimensions = view.readUInt32LE(4);
    const vectorsAt = 8 + count * KEY_BYTES;
    if (dimensions !== this.settings.dimensions || view.length !== vectorsAt + count * dimensions * 4) {
      this.logger.debug("the saved vectors do not fit this model: embedding again");
      return;
    }
    for (let i = 0; i < count; i++) {
      const key = view.toString("hex", 8 + i * KEY_BYTES, 8 + (i + 1) * KEY_BYTES);
      const vector = new Float32Array(dimensions);
      for (let d = 0; d < dimensions; d++) vector[d] = view.readFloatLE(vectorsAt + (i * dimensions + d) * 4);
      if (vector.every(Number.isFinite)) this.#byKey.set(key, vector);
    }
  }

  async #save(): Promise<void> {
    this.#unsaved = false;
    if (!this.saved) return;
    const { dimensions } = this.settings;
    const entries = [...this.#byKey];
    const bytes = Buffer.alloc(8 + entries.length * (KEY_BYTES + dimensions * 4));
    bytes.writeUInt32LE(entries.length, 0);
    bytes.writeUInt32LE(dimensions, 4);
    const vectorsAt = 8 + entries.length * KEY_BYTES;
    entries.forEach(([key, vector], i) => {
      bytes.write(key, 8 + i * KEY_BYTES, "hex");
      for (let d = 0; d < dimensions; d++) bytes.writeFloatLE(vector[d]!, vectorsAt + (i * dimensions + d) * 4);
    });
    await this.saved.save(this.#fileKey(), bytes);
    this.logger.debug(`saved ${entries.length} skill vectors`);
  }

  /** Vectors another process stored in the shared cache (Redis): one key per model and text. */
  async #fromShared(keys: readonly string[]): Promise<void> {
    if (!this.shared) return;
    const stored = await Promise.all(keys.map((key) => this.shared!.get<number[]>(this.#sharedKey(key))));
    keys.forEach((key, i) => {
      const vector = stored[i];
      if (
        Array.isArray(vector) &&
        vector.length === this.settings.dimensions &&
        vector.every((x) => typeof x === "number" && Number.isFinite(x))
      ) {
        this.#byKey.set(key, Float32Array.from(vector));
        this.#unsaved = true;
      }
    });
  }

  async #toShared(keys: readonly string[]): Promise<void> {
    if (!this.shared) return;
    await Promise.all(keys.map((key) => this.shared!.set(this.#sharedKey(key), Array.from(this.#byKey.get(key)!))));
  }

  #sharedKey(key: string): string {
    return `vector:${textKey(`${this.#model!.description}\n${key}`)}`;
  }
}
