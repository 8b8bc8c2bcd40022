import type { SkillsKernel as Kernel } from "../create-kernel.js";
import { errorMessage, UserError } from "../kernel/errors.js";
import { escapeForDisplay } from "../skills/display-text.js";
import { usesOf } from "../skills/usage/read-report.js";
import type { UsageReport } from "../skills/usage/report.js";
import { TOKENS } from "../tokens.js";
import type { CliArgs } from "./args.js";
import type { CliIo } from "./io.js";

/** Never-used skills named in the text report before "and N more". */
const NAMED_UNUSED = 20;

/**
 * `skills-kernel usage`: the figures of the store the config's usage plugin keeps (the cache
 * folder, or Redis with `--cache redis://…`), for whoever runs it: every source, and skills no
 * source serves now (installed from elsewhere, or gone since).
 */
export async function runUsage(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  const usage = kernel.resolve(TOKENS.Usage);
  await kernel.catalog.ready();
  let report: UsageReport;
  try {
    report = await usage.report({
      days: args.usage.days,
      catalog: kernel.catalog,
      unserved: true,
      ...(args.usage.group !== undefined && { group: args.usage.group }),
    });
  } catch (error) {
    throw new UserError(`cannot read the usage figures: ${errorMessage(error)}`, 1);
  }
  io.stdout.write(args.usage.format === "json" ? `${JSON.stringify(report, null, 2)}\n` : renderUsage(report));
  return 0;
}

/** The report as three short sections: most used, never used, asked for but not found. */
export function renderUsage(report: UsageReport): string {
  const span = report.days === 1 ? "today" : `the last ${report.days} days`;
  const used = report.skills.filter((skill) => usesOf(skill) + skill.searchHits > 0);
  const unused = report.skills.filter((skill) => usesOf(skill) + skill.searchHits === 0);
  const lines = [`Most used in ${span}:`];
  if (used.length === 0) lines.push("  none");
  else
    lines.push(
      ...table(
        ["SKILL", "SOURCE", "READS", "FETCHES", "INSTALLS", "FOUND", "FIRST", "LAST USED"],
        used.map((s) => [
          s.name,
          s.source,
          String(s.reads),
          String(s.fetches),
          String(s.installs),
          String(s.searchHits),
          String(s.firstHits),
          s.lastUsed?.slice(0, 16).replace("T", " ") ?? "",
        ]),
      ),
    );
  lines.push("", `Never used in ${span}:`);
  if (unused.length === 0) lines.push("  none");
  else {
    const named = unused.slice(0, NAMED_UNUSED).map((s) => escapeForDisplay(`${s.name} (${s.source})`));
    const more = unused.length - named.length;
    lines.push(`  ${named.join(", ")}${more > 0 ? `, and ${more} more` : ""}`);
  }
  lines.push("", `Asked for but not found in ${span}:`);
  if (report.misses.length === 0) lines.push("  none");
  else
    lines.push(
      ...table(
        ["COUNT", "CALLERS", "LAST SEEN", "QUERY"],
        report.misses.map((m) => [
          String(m.count),
          String(m.callers),
          m.lastSeen.slice(0, 16).replace("T", " "),
          m.query,
        ]),
      ),
    );
  return `${lines.join("\n")}\n`;
}

/** Names and queries come from the store, which others may write: shown escaped, never as terminal controls. */
function table(header: readonly string[], cells: readonly string[][]): string[] {
  const rows = cells.map((row) => row.map(escapeForDisplay));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")}`;
  return [line(header), ...rows.map(line)];
}
