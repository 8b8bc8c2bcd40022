import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { UsageStore } from "../../../skills/usage/store.js";
import { MemoryUsageStore } from "./memory-store.js";
import { openRegular } from "../../../lib/regular-file.js";

const FORMAT_VERSION = 1;
/** A usage file larger than this was not written by this code: it is not read. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The in-process store, kept in a file of the user's cache folder between sessions. Several
 * processes may share the file (two agents' stdio servers, a CLI command): each keeps what it
 * wrote since its last save apart, and a save takes the file's lock, reads what the others saved,
 * adds its own and writes the sum, so nobody's figures overwrite another's.
 */
export class FileUsageStore implements UsageStore {
  /** The file as last read or written, with this process's writes since. */
  #view: MemoryUsageStore;
  /** This process's writes since its last save. */
  #unsaved: MemoryUsageStore;
  #warned = false;

  constructor(
    private readonly file: string,
    private readonly maxEntries: number,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {
    this.#view = this.#empty();
    this.#unsaved = this.#empty();
  }

  get target(): string {
    return this.file;
  }

  /** Reads the file: a missing one is an empty store; one that cannot be read is said, and started afresh. */
  async open(): Promise<void> {
    this.#view = await this.#read();
    this.#view.mergeFrom(this.#unsaved);
  }

  /** Whether this process has figures the file does not hold yet. */
  get dirty(): boolean {
    return this.#unsaved.size > 0;
  }

  async increment(bucket: string, amounts: ReadonlyMap<string, number>, expiresAt: number): Promise<void> {
    await this.#view.increment(bucket, amounts, expiresAt);
    await this.#unsaved.increment(bucket, amounts, expiresAt);
  }

  async keepLatest(bucket: string, times: ReadonlyMap<string, number>, expiresAt: number): Promise<void> {
    await this.#view.keepLatest(bucket, times, expiresAt);
    await this.#unsaved.keepLatest(bucket, times, expiresAt);
  }

  async addDistinct(bucket: string, members: readonly string[], expiresAt: number): Promise<void> {
    await this.#view.addDistinct(bucket, members, expiresAt);
    await this.#unsaved.addDistinct(bucket, members, expiresAt);
  }

  counters(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return this.#view.counters(buckets);
  }

  latest(buckets: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return this.#view.latest(buckets);
  }

  countDistinct(buckets: readonly string[]): Promise<number> {
    return this.#view.countDistinct(buckets);
  }

  /** Adds this process's figures to the file's; kept for the next save when the file cannot be written. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    const saving = this.#unsaved;
    this.#unsaved = this.#empty();
    try {
      // Loaded at the first save: a session that counts nothing never loads the lock's library.
      const { withLockFile } = await import("../../../lifecycle/lock-guard.js");
      await withLockFile(this.file, async () => {
        const merged = await this.#read();
        merged.mergeFrom(saving);
        await this.#write(merged);
        // Writes made while saving are in neither: they go with the next save.
        merged.mergeFrom(this.#unsaved);
        this.#view = merged;
      });
    } catch (error) {
      saving.mergeFrom(this.#unsaved);
      this.#unsaved = saving;
      if (!this.#warned) this.logger.warn(`cannot save usage figures to ${this.file}: ${errorMessage(error)}`);
      this.#warned = true;
    }
  }

  async close(): Promise<void> {
    await this.save();
  }

  #empty(): MemoryUsageStore {
    return new MemoryUsageStore(this.file, this.maxEntries, this.now);
  }

  async #read(): Promise<MemoryUsageStore> {
    const store = this.#empty();
    let text: string;
    try {
      const handle = await openRegular(this.file);
      try {
        if ((await handle.stat()).size > MAX_FILE_BYTES) throw new Error(`it is larger than ${MAX_FILE_BYTES} bytes`);
        text = await handle.readFile("utf8");
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        this.logger.warn(`cannot read usage figures from ${this.file}, starting afresh: ${errorMessage(error)}`);
      return store;
    }
    try {
      const saved = JSON.parse(text) as { version?: unknown; buckets?: unknown };
      if (saved.version !== FORMAT_VERSION)
        throw new Error(`its version is ${String(saved.version)}, not ${FORMAT_VERSION}`);
      store.load(saved.buckets);
    } catch (error) {
      this.logger.warn(`the usage figures in ${this.file} cannot be read, starting afresh: ${errorMessage(error)}`);
    }
    return store;
  }

  /** Written beside the file and renamed over it, readable by the user alone: misses hold what people typed. */
  async #write(store: MemoryUsageStore): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify({ version: FORMAT_VERSION, buckets: store.save() }), {
        flag: "wx",
        mode: 0o600,
      });
      await rename(temporary, this.file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
