import { ToolInputError } from "../../kernel/errors.js";
import type { CatalogSource, Diagnostic, SkillFileContent, SkillFileListing } from "../types.js";
import type { CatalogState } from "./catalog-state.js";
import type { CatalogSkill } from "./catalog-types.js";
import { quote } from "./quote-input.js";
import { suggest } from "./suggest.js";

/** What a lookup needs of the catalog it answers for: the sources it shows, and its first load. */
export interface LookupScope {
  readonly sources: readonly CatalogSource[];
  ready(): Promise<void>;
}

/**
 * Skills by name and their files, as one catalog answers them: the whole one, or a caller's view
 * (`hidesSources`), where a skill of a source it does not show answers as one that does not exist.
 */
export class SkillLookup {
  readonly #scope: LookupScope;
  readonly #state: () => CatalogState;
  readonly #hidesSources: boolean;

  constructor(scope: LookupScope, state: () => CatalogState, hidesSources: boolean) {
    this.#scope = scope;
    this.#state = state;
    this.#hidesSources = hidesSources;
  }

  list(): readonly CatalogSkill[] {
    return this.#state().skills;
  }

  get(idOrName: string): CatalogSkill | undefined {
    const state = this.#state();
    return state.byName.get(idOrName) ?? state.byQualifiedId.get(idOrName);
  }

  resolve(idOrName: string, source?: string): CatalogSkill {
    const found = source === undefined ? this.get(idOrName) : this.#getInSource(idOrName, source);
    if (found) return found;
    const sources = this.#scope.sources;
    if (source !== undefined && !sources.some((s) => s.name === source)) {
      throw new ToolInputError(`no source named ${quote(source)}; sources: ${sources.map((s) => s.name).join(", ")}`);
    }
    const state = this.#state();
    // A skill the policy refused (an audit finding, a missing signature) is named with the reason.
    const refused = state.diagnostics.find(
      (d) =>
        d.code === "policy-refused" &&
        (source === undefined || d.source === source) &&
        d.message.startsWith(`${idOrName}: `),
    );
    if (refused)
      throw new ToolInputError(
        `skill ${quote(idOrName)} of source ${quote(refused.source)} is ${refused.message.slice(idOrName.length + 2)}`,
      );
    const inScope = state.skills.filter((skill) => source === undefined || skill.source === source);
    // Within a source, the name is what was asked for; across sources, the id an agent can use.
    const ids = inScope.flatMap((skill) =>
      source !== undefined ? [skill.name] : idOrName.includes(":") ? [skill.id, skill.qualifiedId] : [skill.id],
    );
    const close = suggest(idOrName, ids);
    const where = source === undefined ? "" : ` in source ${quote(source)}`;
    throw new ToolInputError(
      `no skill named ${quote(idOrName)}${where}${close.length > 0 ? `; did you mean: ${close.join(", ")}?` : ""}`,
    );
  }

  async readDocument(skill: string | CatalogSkill, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent> {
    const { found, source } = await this.#route(skill);
    return source.readDocument(found.path, maxBytes, signal);
  }

  async listFiles(skill: string | CatalogSkill, limit: number, signal?: AbortSignal): Promise<SkillFileListing> {
    const { found, source } = await this.#route(skill);
    return source.listFiles(found.path, limit, signal);
  }

  async readFile(
    skill: string | CatalogSkill,
    filePath: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<SkillFileContent> {
    const { found, source } = await this.#route(skill);
    return source.readFile(found.path, filePath, maxBytes, signal);
  }

  diagnostics(): readonly Diagnostic[] {
    return this.#state().diagnostics;
  }

  #getInSource(idOrName: string, source: string): CatalogSkill | undefined {
    const state = this.#state();
    const qualified = state.byQualifiedId.get(idOrName.startsWith(`${source}:`) ? idOrName : `${source}:${idOrName}`);
    if (qualified?.source === source) return qualified;
    // A name that repeats within the source is qualified by path: the first by precedence wins.
    return state.skills.find((skill) => skill.source === source && skill.name === idOrName);
  }

  async #route(skill: string | CatalogSkill): Promise<{ found: CatalogSkill; source: CatalogSource }> {
    await this.#scope.ready();
    const found = typeof skill === "string" ? this.resolve(skill) : skill;
    const source = this.#scope.sources.find((s) => s.name === found.source);
    // A skill of a source this view hides answers as one that does not exist.
    if (!source && this.#hidesSources) throw new ToolInputError(`no skill named ${quote(found.id)}`);
    if (!source)
      throw new Error(
        `skill ${quote(found.qualifiedId)} names source ${quote(found.source)}, which this catalog does not have`,
      );
    const owner = this.#state().samePathAs.get(found.qualifiedId);
    if (owner !== undefined) {
      throw new ToolInputError(
        `the files of ${quote(found.qualifiedId)} cannot be served: another root of source ${quote(found.source)} ` +
          `holds a skill at the same path ${quote(found.path || ".")} (${owner}), and only that one's are`,
      );
    }
    return { found, source };
  }
}
