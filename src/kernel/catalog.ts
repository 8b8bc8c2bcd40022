import type { Logger } from "./logger.js";
import { errorMessage } from "./errors.js";
import type { Diagnostic, SkillSource, SourceSkill } from "./types.js";

/** A skill as the tools see it: identity resolved across every source. */
export interface CatalogSkill {
  /**
   * What an agent calls it by: the plain name for the skill that wins its name, the qualified id
   * for every skill it shadows.
   */
  readonly id: string;
  /** Always reaches this exact skill: `source:name`, or `source:path` when the name repeats inside one source. */
  readonly qualifiedId: string;
  readonly name: string;
  readonly description: string;
  readonly source: string;
  /** The skill folder relative to its source's root. */
  readonly path: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The start of the markdown body, for ranking. */
  readonly excerpt: string;
  /** True when a higher-precedence skill answers to this plain name. */
  readonly shadowed: boolean;
}

interface CatalogState {
  readonly skills: readonly CatalogSkill[];
  readonly byName: ReadonlyMap<string, CatalogSkill>;
  readonly byQualifiedId: ReadonlyMap<string, CatalogSkill>;
  readonly diagnostics: readonly Diagnostic[];
}

const EMPTY: CatalogState = { skills: [], byName: new Map(), byQualifiedId: new Map(), diagnostics: [] };

/**
 * Every skill from every source, with one identity rule (docs/architecture.md, "Skill identity"):
 * sources rank in the order plugins contributed them, then by their own rank (root order), then
 * shallower folders, then path order. The first skill of each name answers to the plain name;
 * the others stay reachable by their qualified id.
 */
export class SkillCatalog {
  readonly #sources: SkillSource[] = [];
  #state: CatalogState = EMPTY;
  #loading: Promise<void> | undefined;
  #loaded = false;

  constructor(private readonly logger: Logger) {}

  addSource(source: SkillSource): void {
    if (this.#sources.some((s) => s.name === source.name)) {
      throw new Error(`a skill source named "${source.name}" already exists; give one of them another name`);
    }
    this.#sources.push(source);
  }

  get sources(): readonly SkillSource[] {
    return this.#sources;
  }

  /**
   * (Re)load every source. Concurrent calls share one load; a source that fails is reported as a
   * diagnostic and contributes nothing, so one broken source never hides the others.
   */
  refresh(signal: AbortSignal = new AbortController().signal): Promise<void> {
    this.#loading ??= this.#load(signal).finally(() => {
      this.#loading = undefined;
      this.#loaded = true;
    });
    return this.#loading;
  }

  /** Resolves once the first load has finished (starting it if nobody has). */
  async ready(): Promise<void> {
    if (!this.#loaded) await (this.#loading ?? this.refresh());
  }

  list(): readonly CatalogSkill[] {
    return this.#state.skills;
  }

  /** Find a skill by plain name or qualified id. */
  get(idOrName: string): CatalogSkill | undefined {
    return this.#state.byName.get(idOrName) ?? this.#state.byQualifiedId.get(idOrName);
  }

  diagnostics(): readonly Diagnostic[] {
    return this.#state.diagnostics;
  }

  async #load(signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const snapshots = await Promise.all(
      this.#sources.map(async (source) => {
        try {
          return await source.load(signal);
        } catch (error) {
          const diagnostic: Diagnostic = {
            severity: "error",
            source: source.name,
            path: "",
            code: "source-failed",
            message: `source "${source.name}" failed to load: ${errorMessage(error)}`,
          };
          return { skills: [], diagnostics: [diagnostic] };
        }
      }),
    );
    // A load cut short by shutdown is not a source failure: keep what was served and say nothing.
    if (signal.aborted) return;
    this.#state = buildState(
      this.#sources.map((source, index) => ({ source: source.name, skills: snapshots[index]!.skills })),
      snapshots.flatMap((s) => s.diagnostics),
    );
    for (const d of this.#state.diagnostics) {
      const where = `${d.source}:${d.path || "."}`;
      if (d.severity === "error") this.logger.warn(`skipped ${where}: ${d.message}`);
      else this.logger.debug(`${where}: ${d.message}`);
    }
    this.logger.debug(
      `loaded ${this.#state.skills.length} skills from ${this.#sources.length} sources in ${Math.round(performance.now() - started)} ms`,
    );
  }
}

function depth(path: string): number {
  return path === "" ? 0 : path.split("/").length;
}

function buildState(
  sources: readonly { source: string; skills: readonly SourceSkill[] }[],
  diagnostics: readonly Diagnostic[],
): CatalogState {
  const ordered = sources.flatMap(({ source, skills }) =>
    [...skills]
      .sort((a, b) => a.rank - b.rank || depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((skill) => ({ source, skill })),
  );

  const namesPerSource = new Map<string, Map<string, number>>();
  for (const { source, skill } of ordered) {
    const counts = namesPerSource.get(source) ?? new Map<string, number>();
    counts.set(skill.name, (counts.get(skill.name) ?? 0) + 1);
    namesPerSource.set(source, counts);
  }

  const byName = new Map<string, CatalogSkill>();
  const byQualifiedId = new Map<string, CatalogSkill>();
  const skills: CatalogSkill[] = [];
  for (const { source, skill } of ordered) {
    const uniqueInSource = namesPerSource.get(source)!.get(skill.name) === 1;
    let qualifiedId = `${source}:${uniqueInSource ? skill.name : skill.path || "."}`;
    // Two roots of one source can hold the same relative path; keep every skill reachable anyway.
    const base = qualifiedId;
    for (let n = 2; byQualifiedId.has(qualifiedId); n++) qualifiedId = `${base}#${n}`;
    const shadowed = byName.has(skill.name);
    const entry: CatalogSkill = {
      id: shadowed ? qualifiedId : skill.name,
      qualifiedId,
      name: skill.name,
      description: skill.description,
      source,
      path: skill.path,
      frontmatter: skill.frontmatter,
      excerpt: skill.excerpt,
      shadowed,
    };
    if (!shadowed) byName.set(skill.name, entry);
    byQualifiedId.set(qualifiedId, entry);
    skills.push(entry);
  }
  return { skills, byName, byQualifiedId, diagnostics };
}
