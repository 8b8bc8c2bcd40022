import type { McpRequestEnd, RequestObserver, ToolAnswer } from "../../../kernel/request-observer.js";
import type { HandlerCaller } from "../../../kernel/types.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { mapSkillUris, parseSkillUri, SKILL_DOCUMENT } from "../../../skills/files/skill-uri.js";

/** What the observer makes of an answer: a use of a skill, or a search. */
export interface UsageNotes {
  /** Work out what an answer used later, off the answer's path (at the next flush). */
  later(interpret: () => void): void;
  used(skill: CatalogSkill, use: "reads" | "fetches" | "installs", caller: HandlerCaller): void;
  /** A search's results in rank order; `missed` with the query when the best was weak or there was none. */
  searched(results: readonly CatalogSkill[], missed: string | undefined, caller: HandlerCaller): void;
}

/** The prompt that lists every skill and gets one by its `skill` argument (skill-prompts). */
const LISTING_PROMPT = "skills";
const NOTHING = { end() {} };

/**
 * Usage as the server answers, from one place: tool results through every door a tool has (MCP,
 * the REST API, the CLI's calls), and over MCP the reads that are not tools (a skill's files as
 * resources, skills/get, a skill's prompt). An answer only queues what it returned; what it used
 * is worked out at the next flush. Every skill is looked up in the caller's own view of the
 * catalog, so only skills the caller may see, and that exist, are ever counted; what the client
 * sent is never taken for a skill's name.
 */
export function usageObserver(notes: UsageNotes): RequestObserver {
  return {
    observe({ method, params }, caller) {
      if (method !== "resources/read" && method !== "skills/get" && method !== "prompts/get") return NOTHING;
      return {
        end(outcome: McpRequestEnd) {
          if (outcome.errorCode !== undefined || outcome.cancelled) return;
          notes.later(() => requestUse(method, params, caller, notes));
        },
      };
    },
    toolAnswered(answer) {
      if (answer.result.isError) return;
      notes.later(() => toolUse(answer, notes));
    },
  };
}

function requestUse(
  method: string,
  params: Readonly<Record<string, unknown>> | undefined,
  caller: HandlerCaller,
  notes: UsageNotes,
): void {
  if (method === "prompts/get") {
    const skill = promptSkill(caller.catalog, params);
    if (skill) notes.used(skill, "reads", caller);
    return;
  }
  const found = typeof params?.uri === "string" ? locate(caller.catalog, params.uri) : undefined;
  if (!found || found.path === "") return;
  if (found.path === SKILL_DOCUMENT) notes.used(found.skill, "reads", caller);
  else if (method === "resources/read") notes.used(found.skill, "fetches", caller);
}

function toolUse({ tool, args, caller, result }: ToolAnswer, notes: UsageNotes): void {
  const structured = record(result.structuredContent);
  const { catalog } = caller;
  switch (tool) {
    case "search_skills": {
      const results = Array.isArray(structured?.results) ? structured.results.map(record) : [];
      const skills = results.flatMap((entry) => {
        const skill = typeof entry?.id === "string" ? catalog.get(entry.id) : undefined;
        return skill ? [skill] : [];
      });
      const best = results[0];
      const query = record(args)?.query;
      const missed = (best === undefined || best.match_quality === "weak") && typeof query === "string";
      notes.searched(skills, missed ? (query as string) : undefined, caller);
      return;
    }
    case "read_skill": {
      const skill = typeof structured?.qualified_id === "string" ? catalog.get(structured.qualified_id) : undefined;
      if (skill) notes.used(skill, "reads", caller);
      return;
    }
    case "fetch_skill_files": {
      const skill = typeof structured?.skill === "string" ? catalog.get(structured.skill) : undefined;
      const files = Array.isArray(structured?.files) ? structured.files.map(record) : [];
      if (skill && files.some((file) => file !== undefined && !("error" in file))) notes.used(skill, "fetches", caller);
      return;
    }
    case "install_skill": {
      const given = record(args);
      if (given?.dry_run === true || typeof given?.skill_name !== "string") return;
      const skill = resolved(catalog, given.skill_name, typeof given.source === "string" ? given.source : undefined);
      if (skill) notes.used(skill, "installs", caller);
      return;
    }
    default:
      return;
  }
}

/** The skill a prompts/get names: its own prompt (named by its plain id), or the listing prompt's `skill`. */
function promptSkill(
  catalog: CatalogView,
  params: Readonly<Record<string, unknown>> | undefined,
): CatalogSkill | undefined {
  const name = params?.name;
  if (typeof name !== "string") return undefined;
  if (name === LISTING_PROMPT) {
    const wanted = record(params?.arguments)?.skill;
    return typeof wanted === "string" && wanted !== "" ? catalog.get(wanted) : undefined;
  }
  const skill = catalog.get(name);
  return skill && !skill.shadowed && skill.id === name ? skill : undefined;
}

/** The skill a `skill://` URI reaches in the caller's view, and the path inside it. */
function locate(catalog: CatalogView, uri: string): { skill: CatalogSkill; path: string } | undefined {
  const parsed = parseSkillUri(uri);
  if ("problem" in parsed) return undefined;
  const found = mapSkillUris(catalog.list()).locate(parsed.segments);
  return found && { skill: found.mapped.skill, path: found.path };
}

function resolved(catalog: CatalogView, id: string, source: string | undefined): CatalogSkill | undefined {
  try {
    return catalog.resolve(id, source);
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
