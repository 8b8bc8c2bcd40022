import type { LoadOptions, CatalogSource, Diagnostic, SkillFileContent, SkillFileListing } from "../types.js";
import type { WholeCatalog } from "./catalog.js";
import type { CatalogState } from "./catalog-state.js";
import type { CatalogListener, CatalogSkill, CatalogView, SourceStatus } from "./catalog-types.js";
import { SkillLookup } from "./skill-lookup.js";
import { loadingSources, unavailableSources } from "./source-load.js";

// Declared beside the skill types it names, which the kernel may name too (src/kernel/types.ts).
export type { CatalogView } from "./catalog-types.js";

/**
 * A caller's view: the whole catalog's answers over the sources it shows, with identity resolved
 * among those alone (`state`, built by the whole catalog once per load), so a hidden skill
 * shadows nothing, is suggested for nothing and answers exactly as an unknown name. Loading,
 * waiting and change events are the whole catalog's. Its fields are `#private`: a plugin holding a
 * view reaches nothing through it, by property or cast, that the view does not show.
 */
export class ScopedCatalog implements CatalogView {
  readonly #whole: WholeCatalog;
  readonly #shown: ReadonlySet<string>;
  readonly #state: () => CatalogState;
  readonly #lookup: SkillLookup;

  constructor(whole: WholeCatalog, shown: ReadonlySet<string>, state: () => CatalogState) {
    this.#whole = whole;
    this.#shown = shown;
    this.#state = state;
    this.#lookup = new SkillLookup(this, state, true);
  }

  get sources(): readonly CatalogSource[] {
    return this.#whole.sources.filter((source) => this.#shown.has(source.name));
  }

  get restricted(): boolean {
    return this.#whole.restricted;
  }

  refresh(
    sources?: string | readonly string[],
    signal: AbortSignal = new AbortController().signal,
    options: LoadOptions = {},
  ): Promise<void> {
    const named = sources === undefined ? [...this.#shown] : typeof sources === "string" ? [sources] : sources;
    const shown = named.filter((name) => this.#shown.has(name));
    return shown.length === 0 ? Promise.resolve() : this.#whole.refresh(shown, signal, options);
  }

  ready(): Promise<void> {
    return this.#whole.ready();
  }

  within(load: Promise<void>): Promise<void> {
    return this.#whole.within(load);
  }

  status(): readonly SourceStatus[] {
    return this.#whole.status().filter((status) => this.#shown.has(status.source));
  }

  unavailable(): readonly SourceStatus[] {
    return unavailableSources(this.status());
  }

  loading(): string[] {
    return loadingSources(this.status());
  }

  list(): readonly CatalogSkill[] {
    return this.#lookup.list();
  }

  get(idOrName: string): CatalogSkill | undefined {
    return this.#lookup.get(idOrName);
  }

  resolve(idOrName: string, source?: string): CatalogSkill {
    return this.#lookup.resolve(idOrName, source);
  }

  readDocument(skill: string | CatalogSkill, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent> {
    return this.#lookup.readDocument(skill, maxBytes, signal);
  }

  listFiles(skill: string | CatalogSkill, limit: number, signal?: AbortSignal): Promise<SkillFileListing> {
    return this.#lookup.listFiles(skill, limit, signal);
  }

  readFile(
    skill: string | CatalogSkill,
    filePath: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<SkillFileContent> {
    return this.#lookup.readFile(skill, filePath, maxBytes, signal);
  }

  diagnostics(): readonly Diagnostic[] {
    return this.#lookup.diagnostics();
  }

  onChange(listener: CatalogListener): () => void {
    return this.#whole.onChange((change) => {
      const state = this.#state();
      const own = (skills: readonly CatalogSkill[]) =>
        skills.flatMap((skill) =>
          this.#shown.has(skill.source) ? [state.byQualifiedId.get(skill.qualifiedId) ?? skill] : [],
        );
      const seen = {
        added: own(change.added),
        removed: change.removed.filter((skill) => this.#shown.has(skill.source)),
        updated: own(change.updated),
      };
      if (seen.added.length + seen.removed.length + seen.updated.length > 0) listener(seen);
    });
  }
}
