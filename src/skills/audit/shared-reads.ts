import type { SkillFileContent } from "../types.js";

/** What the reads of every skill whose check is still to finish may hold at once; past it, each reads for itself. */
export interface SharedBudget {
  held: number;
  readonly max: number;
}

interface Held {
  readonly maxBytes: number;
  readonly read: Promise<SkillFileContent>;
  size: number;
}

/**
 * One skill's reads while a check on its first read is pending or running: the check and whoever
 * reads the skill meanwhile (an export packing it) share each file's read, so the source reads it
 * once, whoever asks first. A read asking for more than one held gave reads again; a failed read
 * is not shared (the next asker reads for itself and meets its own error).
 */
export class SharedReads {
  readonly #held = new Map<string, Held>();
  #released = false;

  constructor(private readonly budget: SharedBudget) {}

  /** `file`: a path of the skill folder, or "" for its SKILL.md. */
  async read(
    file: string,
    maxBytes: number,
    fromSource: (maxBytes: number) => Promise<SkillFileContent>,
  ): Promise<SkillFileContent> {
    const held = this.#held.get(file);
    if (held !== undefined) {
      const content = await held.read.catch(() => undefined);
      if (content !== undefined && (maxBytes <= held.maxBytes || !content.truncated)) return cut(content, maxBytes);
    }
    const read = fromSource(maxBytes);
    if (this.#released) return read;
    const entry: Held = { maxBytes, read, size: 0 };
    this.#drop(file);
    this.#held.set(file, entry);
    read.then(
      (content) => {
        if (this.#held.get(file) !== entry) return;
        entry.size = content.bytes.length;
        this.budget.held += entry.size;
        if (this.budget.held > this.budget.max) this.#drop(file);
      },
      () => {
        if (this.#held.get(file) === entry) this.#held.delete(file);
      },
    );
    return read;
  }

  /** Lets go of every read held: the check is done. */
  release(): void {
    this.#released = true;
    for (const file of [...this.#held.keys()]) this.#drop(file);
  }

  #drop(file: string): void {
    const held = this.#held.get(file);
    if (held === undefined) return;
    this.budget.held -= held.size;
    this.#held.delete(file);
  }
}

/** `content` as a read of at most `maxBytes` would have answered. */
function cut(content: SkillFileContent, maxBytes: number): SkillFileContent {
  if (content.bytes.length <= maxBytes) return content;
  return { ...content, bytes: content.bytes.subarray(0, maxBytes), truncated: true };
}
