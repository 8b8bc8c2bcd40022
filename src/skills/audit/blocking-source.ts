import pLimit from "p-limit";
import type { Logger } from "../../kernel/logger.js";
import { errorMessage } from "../../kernel/errors.js";
import type {
  LoadOptions,
  Diagnostic,
  CatalogSource,
  SkillFileListing,
  SourceSkill,
  SourceSnapshot,
} from "../types.js";
import { MiB } from "../files/skill-files.js";
import { sourceReader, type SkillReader } from "../files/skill-reader.js";
import { type SharedBudget, SharedReads } from "./shared-reads.js";
import { findingPlace } from "./render.js";
import type { AuditFinding } from "./types.js";

/** Skills of one source audited at once while it loads. */
const CONCURRENCY = 4;
/** Bytes of one source's reads held for checks on first read still to finish (SharedReads). */
const SHARED_BYTES = 64 * MiB;
/** Listings of skills whose check on first read is still to run or finish, kept for that check (the latest ones). */
const SHARED_LISTINGS = 64;

/** Why a skill may not be served ("blocked by the audit: …"), or undefined when it may. */
export type ServeCheck = (skill: SourceSkill, reader: SkillReader, signal: AbortSignal) => Promise<string | undefined>;

/** Findings in one line: rule, place and message of each, for a diagnostic or an error. */
export function describeFindings(findings: readonly AuditFinding[]): string {
  return findings.map((f) => `${f.rule} at ${findingPlace(f)} (${f.message})`).join("; ");
}

/**
 * `source` with every skill that fails a check left out of its snapshots, each replaced by an
 * error diagnostic saying why (the rule and where): nothing in the catalog then serves it, by
 * any tool, resource or extension method. A skill the check cannot read is left out too.
 * `onFirstRead` checks run in the background when a served skill's content is first read after
 * the load that served it (its SKILL.md, or one of its files), and only report: they never hold
 * up the read, nor leave a skill out. Checking at load instead would read every file of every
 * skill after each load of a large local catalog, most of them never read by anyone. Until such a
 * check is done, what the skill's readers read is kept for it (an export that packs every skill
 * reads each file once, not once more for the audit); they themselves always read the source.
 */
export function withServeChecks(
  source: CatalogSource,
  checks: readonly ServeCheck[],
  logger: Logger,
  onFirstRead: readonly ServeCheck[] = [],
): CatalogSource {
  // Each refusal is logged once, not at every reload.
  const logged = new Set<string>();
  // The last load's skills by path (kept only when there are checks on first read), the paths
  // read since it, and the signal their checks stop with.
  let served = new Map<string, SourceSkill>();
  let read = new Set<string>();
  let lifetime: AbortSignal | undefined;
  // The reads of each skill whose check on first read is not done, by path (since the last load).
  let sharing = new Map<string, SharedReads>();
  const budget: SharedBudget = { held: 0, max: SHARED_BYTES };
  // The latest listing of each skill whose check on first read is not done (an export lists a
  // skill, then reads it): that check lists it with the same walk, so it takes this one instead.
  let listed = new Map<string, { limit: number; listing: Promise<SkillFileListing> }>();
  const listFiles = (path: string, limit: number, signal?: AbortSignal) => {
    const listing = source.listFiles(path, limit, signal);
    if (served.has(path) && (!read.has(path) || sharing.has(path))) {
      listed.delete(path);
      listed.set(path, { limit, listing });
      if (listed.size > SHARED_LISTINGS) listed.delete(listed.keys().next().value!);
    }
    return listing;
  };
  const listedFor = async (path: string, limit: number, signal?: AbortSignal) => {
    const held = listed.get(path);
    listed.delete(path);
    const listing = await held?.listing.catch(() => undefined);
    return listing !== undefined && answers(listing, held!.limit, limit)
      ? listing
      : source.listFiles(path, limit, signal);
  };
  const background = pLimit(CONCURRENCY);
  // `file` undefined: the skill's SKILL.md.
  const shared = (
    reads: SharedReads | undefined,
    path: string,
    file: string | undefined,
    maxBytes: number,
    signal: AbortSignal | undefined,
    forCheck: boolean,
  ) => {
    const fromSource = (max: number) =>
      file === undefined ? source.readDocument(path, max, signal) : source.readFile(path, file, max, signal);
    if (reads === undefined) return fromSource(maxBytes);
    return forCheck ? reads.forCheck(file ?? "", maxBytes, fromSource) : reads.served(file ?? "", maxBytes, fromSource);
  };
  const firstRead = (path: string) => {
    const skill = served.get(path);
    if (skill === undefined || read.has(path)) return;
    read.add(path);
    const signal = lifetime!;
    const reads = new SharedReads(budget);
    sharing.set(path, reads);
    const reader: SkillReader = {
      ...sourceReader(source, path),
      listFiles: (limit, listSignal) => listedFor(path, limit, listSignal),
      readDocument: (maxBytes, readSignal) => shared(reads, path, undefined, maxBytes, readSignal, true),
      readFile: (file, maxBytes, readSignal) => shared(reads, path, file, maxBytes, readSignal, true),
    };
    background(async () => {
      for (const check of onFirstRead) await check(skill, reader, signal);
    })
      .catch((error: unknown) => {
        if (!signal.aborted)
          logger.debug(
            `source "${source.name}": the check of ${path || "."} on its first read stopped: ${errorMessage(error)}`,
          );
      })
      .finally(() => {
        if (sharing.get(path) === reads) sharing.delete(path);
        listed.delete(path);
        reads.release();
      });
  };
  const load = async (signal: AbortSignal, options?: LoadOptions): Promise<SourceSnapshot> => {
    const snapshot = await (options ? source.load(signal, options) : source.load(signal));
    // Checks on first read only (the warn audit): nothing to ask of each skill now.
    const verdicts: (string | undefined)[] =
      checks.length === 0
        ? []
        : await pLimit(CONCURRENCY).map(snapshot.skills, async (skill) => {
            const reader = sourceReader(source, skill.path);
            for (const check of checks) {
              const verdict = await check(skill, reader, signal).catch((error: unknown) => {
                if (signal.aborted) throw error;
                return `not served: it could not be checked (${errorMessage(error)})`;
              });
              if (verdict !== undefined) return verdict;
            }
            return undefined;
          });
    const refused: Diagnostic[] = [];
    const skills = snapshot.skills.filter((skill, index) => {
      const why = verdicts[index];
      if (why === undefined) return true;
      refused.push({
        severity: "error",
        source: source.name,
        path: skill.path,
        code: "policy-refused",
        message: `${skill.name}: ${why}`,
      });
      const line = `source "${source.name}": ${skill.name} (${skill.path || "."}) ${why}`;
      if (!logged.has(line)) logger.warn(line);
      logged.add(line);
      return false;
    });
    if (onFirstRead.length > 0) {
      served = new Map(skills.map((skill) => [skill.path, skill]));
      read = new Set();
      // A read after a load is not answered with bytes read before it.
      sharing = new Map();
      listed = new Map();
      lifetime = signal;
    }
    return { skills, diagnostics: [...snapshot.diagnostics, ...refused] };
  };
  return {
    name: source.name,
    description: source.description,
    ...(source.capabilities && { capabilities: source.capabilities }),
    load,
    readDocument: (path, maxBytes, signal) => {
      // A read of no bytes asks only the size (the Skills extension's listing): no content is served.
      if (maxBytes === 0) return source.readDocument(path, maxBytes, signal);
      firstRead(path);
      return shared(sharing.get(path), path, undefined, maxBytes, signal, false);
    },
    listFiles,
    readFile: (path, file, maxBytes, signal) => {
      firstRead(path);
      return shared(sharing.get(path), path, file, maxBytes, signal, false);
    },
    ...(source.search && { search: source.search.bind(source) }),
    ...(source.watch && { watch: source.watch.bind(source) }),
    ...(source.freshness && { freshness: source.freshness }),
  };
}

/**
 * Whether a listing made with `madeWith` is the one `limit` would give: every file the walk found
 * was listed (none omitted) and either `limit` is no smaller or the files stay under it.
 */
function answers(listing: SkillFileListing, madeWith: number, limit: number): boolean {
  return listing.omitted === 0 && (limit >= madeWith || listing.files.length < limit);
}
