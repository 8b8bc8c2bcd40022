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
 * One skill's reads while a check on its first read is pending or running: what the skill's
 * readers read meanwhile (an export packing it) is kept for the check, so the source reads each
 * file once for both. Only the check is answered from what is kept: every other reader goes to
 * the source, so a file changed meanwhile is never served from an earlier read. A check asking
 * for more than was read reads again; a failed read is not kept.
 */
export class SharedReads {
  readonly #held = new Map<string, Held>();
  #released = false;

  constructor(private readonly budget: SharedBudget) {}

  /** A read by anyone but the check (`file`: a path of the skill folder, or "" for its SKILL.md): kept for the check. */
  served(
    file: string,
    maxBytes: number,
    fromSource: (maxBytes: number) => Promise<SkillFileContent>,
  ): Promise<SkillFileContent> {
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

  /** The check's read: what a reader read meanwhile when it holds enough, else the source's. */
  async forCheck(
    file: string,
    maxBytes: number,
    fromSource: (maxBytes: number) => Promise<SkillFileContent>,
  ): Promise<SkillFileContent> {
    const held = this.#held.get(file);
    if (held !== undefined) {
      const content = await held.read.catch(() => undefined);
      if (content !== undefined && (maxBytes <= held.maxBytes || !content.truncated)) return cut(content, maxBytes);
    }
    return fromSource(maxBytes);
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
