import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import type { SkillsKernel as Kernel } from "../../create-kernel.js";
import { UserError } from "../../kernel/errors.js";
import type { ResolvedPluginEntry } from "../../kernel/config.js";
import { agentListings } from "../../lifecycle/agent-listings.js";
import { builtinPlugins } from "../../plugins/index.js";
import type { CatalogSkill } from "../../skills/catalog/catalog-types.js";
import { descriptionProblems } from "../../skills/doctor/descriptions.js";
import { findability } from "../../skills/doctor/findability.js";
import { nearDuplicates } from "../../skills/doctor/near-duplicates.js";
import { SKILL_FILES } from "../../skills/files/folder-rules.js";
import { offeredToModel } from "../../skills/skill-md/claude-fields.js";
import type { Ranker } from "../../skills/types.js";
import { TOKENS } from "../../tokens.js";
import type { AuditFormat } from "../args.js";
import { doctorReport, exitCode, type Located } from "./report.js";
import { doctorSarif } from "./sarif.js";
import { renderDoctor } from "./text.js";
import type { CliIo } from "../io.js";

/**
 * The folders given to `doctor DIR...` as sources of their own, after every source the config
 * serves: their skills are ranked against everything the server serves. Each must be a folder.
 */
export function withReviewFolders(dirs: readonly string[], cwd: string) {
  const roots = dirs.map((dir) => {
    const path = resolve(cwd, dir);
    if (!existsSync(path) || !statSync(path).isDirectory()) throw new UserError(`${dir} is not a folder`, 2);
    return { path };
  });
  return async (plugins: ResolvedPluginEntry[]): Promise<ResolvedPluginEntry[]> => {
    const index = plugins.findIndex((entry) => entry.plugin.name === "fs");
    if (index === -1) return [{ plugin: await builtinPlugins.fs!(), options: { roots }, origin: "doctor" }, ...plugins];
    const entry = plugins[index]!;
    const options = (typeof entry.options === "object" && entry.options !== null ? entry.options : {}) as {
      roots?: unknown[];
    };
    const updated = { ...entry, options: { ...options, roots: [...(options.roots ?? []), ...roots] } };
    return plugins.map((candidate) => (candidate === entry ? updated : candidate));
  };
}

/**
 * `skills-kernel doctor [DIR...]`: whether each skill will be found (its own phrases searched for
 * through the configured ranker, against the whole catalog), what its description lacks, and how
 * much of each agent's native listing budget the skills in its folders take. Under review are the
 * skills in DIR, or without one every skill served. Exit code: 1 on a collision or an overflow.
 */
export async function runDoctor(
  kernel: Kernel,
  dirs: readonly string[],
  format: AuditFormat,
  io: CliIo,
): Promise<number> {
  const cwd = io.cwd;
  await kernel.catalog.ready();
  const all = kernel.catalog.list();
  const located = locate(kernel, all, cwd);
  // The same folder served twice (a DIR the config also serves) is one skill: the served one.
  const seen = new Set<string>();
  const pool = all.filter((skill) => {
    const folder = located.get(skill)?.real;
    if (folder === undefined) return true;
    if (seen.has(folder)) return false;
    seen.add(folder);
    return true;
  });
  const offered = pool.filter(offeredToModel);
  const reviewRoots = dirs.map((dir) => realpathSync(resolve(cwd, dir)));
  const review =
    reviewRoots.length === 0
      ? offered
      : offered.filter((skill) => {
          const folder = located.get(skill)?.real;
          return folder !== undefined && reviewRoots.some((root) => folder === root || folder.startsWith(root + sep));
        });
  const ranker = await rankerFor(kernel);
  ranker.build(offered);
  const report = doctorReport({
    ranker: ranker.name,
    catalog: offered.length,
    findability: await findability(ranker, review),
    nearDuplicates: nearDuplicates(review, offered),
    problems: review.map((skill) => ({ skill, problems: descriptionProblems(skill, pool) })),
    listings: await agentListings(cwd, homedir()),
    where: (skill) => located.get(skill)?.shown ?? `${skill.source}:${skill.path}`,
  });
  if (format === "json") io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (format === "sarif") io.stdout.write(`${JSON.stringify(doctorSarif(report, cwd), null, 2)}\n`);
  else io.stdout.write(renderDoctor(report));
  return exitCode(report);
}

/** A ranker of the kind search uses (each consumer gets its own, empty): BM25 when the config has none. */
async function rankerFor(kernel: Kernel): Promise<Ranker> {
  const configured = kernel.resolveOptional(TOKENS.Ranker);
  if (configured) return configured;
  const { Bm25Ranker } = await import("../../plugins/rankers/ranker-bm25/index.js");
  return new Bm25Ranker();
}

/**
 * Where each skill of a source with local folders is: its folder, real (to tell one folder served
 * twice), and as shown (relative to the working folder). A skill's root is the first of its
 * source's roots holding it.
 */
function locate(kernel: Kernel, skills: readonly CatalogSkill[], cwd: string): Map<CatalogSkill, Located> {
  const roots = new Map(kernel.catalog.sources.map((source) => [source.name, source.capabilities?.localFolders ?? []]));
  const located = new Map<CatalogSkill, Located>();
  for (const skill of skills) {
    for (const root of roots.get(skill.source) ?? []) {
      const folder = join(root, skill.path);
      if (!SKILL_FILES.some((file) => existsSync(join(folder, file)))) continue;
      located.set(skill, { real: realpathSync(folder), shown: relative(cwd, folder) || "." });
      break;
    }
  }
  return located;
}
