import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { Logger } from "../../../kernel/logger.js";
import type { MappedSkill, SkillUriMap } from "../../../skills/files/skill-uri.js";
import { encodeCursor, indexAfter } from "../../../skills/catalog/page-cursor.js";
import { decodeKeyCursor } from "./cursor.js";
import type { EntryBuilder, EntryResult, SkillEntry } from "./entries.js";

/** Skills whose entries are built at once while a page fills. */
const BUILD_CONCURRENCY = 4;

export interface SkillsPage {
  readonly skills: SkillEntry[];
  readonly nextCursor?: string;
}

/**
 * The skills/list pages: the mapped skills in URI order (a stable order a cursor can resume in),
 * less those configured as unlisted; a skill whose entry cannot be given is left out, said once
 * per reason in the log, and the page fills on with the next.
 */
export class SkillListing {
  readonly #ordered = new WeakMap<SkillUriMap, readonly MappedSkill[]>();
  /** The last reason logged per skill, so a listing repeated every minute does not repeat it. */
  readonly #said = new Map<string, string>();

  constructor(
    private readonly builder: EntryBuilder,
    private readonly isUnlisted: (skill: CatalogSkill) => boolean,
    private readonly pageSize: number,
    private readonly logger: Logger,
  ) {}

  async page(map: SkillUriMap, cursor: unknown, signal: AbortSignal): Promise<SkillsPage> {
    const ordered = this.#order(map);
    let next = indexAfter(ordered, (mapped) => mapped.uri, decodeKeyCursor(cursor));
    const skills: SkillEntry[] = [];
    let last: MappedSkill | undefined;
    while (skills.length < this.pageSize && next < ordered.length) {
      const batch = ordered.slice(next, next + Math.min(BUILD_CONCURRENCY, this.pageSize - skills.length));
      next += batch.length;
      const results = await Promise.all(batch.map((mapped) => this.entry(mapped, signal)));
      results.forEach((result, index) => {
        if ("entry" in result) skills.push(result.entry);
        last = batch[index];
      });
    }
    return { skills, ...(next < ordered.length && last ? { nextCursor: encodeCursor(last.uri) } : {}) };
  }

  /** The entry of one skill, the reason it has none logged (once per reason) when it has none. */
  async entry(mapped: MappedSkill, signal: AbortSignal): Promise<EntryResult> {
    const result = await this.builder.build(mapped, signal);
    const id = mapped.skill.qualifiedId;
    if ("entry" in result) this.#said.delete(id);
    else this.#say(id, `${mapped.uri} is left out of the skills extension (${result.code})`, result.problem);
    return result;
  }

  #say(id: string, what: string, why: string): void {
    if (this.#said.get(id) === why) return;
    this.#said.set(id, why);
    this.logger.warn(`${what}: ${why}`);
  }

  #order(map: SkillUriMap): readonly MappedSkill[] {
    let ordered = this.#ordered.get(map);
    if (!ordered) {
      // Skills no URI reaches are served by the tools only: say why, once, as for those left out.
      for (const { skill, code, message } of map.unmapped)
        this.#say(skill.qualifiedId, `${skill.qualifiedId} has no skill:// URI (${code})`, message);
      ordered = map.mapped
        .filter((mapped) => !this.isUnlisted(mapped.skill))
        .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
      this.#ordered.set(map, ordered);
    }
    return ordered;
  }
}
