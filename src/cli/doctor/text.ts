import { oneLine } from "../../skills/catalog/catalog-summary.js";
import type { AgentListing } from "../../lifecycle/agent-listings.js";
import type { DoctorReport, SkillReport } from "./report.js";

/** Text from a SKILL.md (ids, phrases), one line and escaped, as the other commands show it. */
const shown = (text: string) => oneLine(text, 120);
const quoted = (text: string) => `"${shown(text)}"`;
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;
const chars = (n: number) => n.toLocaleString("en-US");

/** doctor's report for people: findability, near-duplicates, descriptions, listing budgets, the verdict. */
export function renderDoctor(report: DoctorReport): string {
  const out: string[] = [];
  const { totals } = report;
  out.push(
    `${totals.reviewed} skill${totals.reviewed === 1 ? "" : "s"} reviewed, each searched for with its own phrases ` +
      `through the ${report.ranker} ranker among the ${report.catalog} skills served`,
  );
  out.push("", "Findability (100: first on every phrase)");
  if (report.skills.length === 0) out.push("  no skill to review");
  const perfect = report.skills.filter((skill) => skill.findability === 100);
  const worst = report.skills
    .filter((skill) => skill.findability !== 100)
    .sort((a, b) => (a.findability ?? -1) - (b.findability ?? -1));
  for (const skill of worst) out.push(...findabilityLines(skill));
  if (perfect.length > 0) {
    const names = perfect.slice(0, 30).map((skill) => shown(skill.id));
    out.push(`  ${perfect.length} first on every phrase: ${names.join(", ")}${perfect.length > 30 ? ", …" : ""}`);
  }

  out.push("", "Near-duplicate descriptions");
  if (report.nearDuplicates.length === 0) out.push("  none");
  for (const pair of report.nearDuplicates)
    out.push(`  ${shown(pair.id)} and ${shown(pair.other)} say the same (similarity ${pair.similarity.toFixed(2)})`);

  out.push("", "Descriptions");
  const described = report.skills.filter((skill) => skill.problems.length > 0);
  if (described.length === 0) out.push("  no problem");
  for (const skill of described) {
    out.push(`  ${shown(skill.id)} (${shown(skill.location)})`);
    for (const problem of skill.problems) out.push(`    ${problem.code}: ${problem.message}`);
  }

  out.push("", "Listing budgets (the skills each agent lists from its own folders)");
  out.push(...listingLines(report.listings));

  out.push(
    "",
    `${totals.collisions} collision${totals.collisions === 1 ? "" : "s"}, ${totals.overflows} listing overflow${totals.overflows === 1 ? "" : "s"}, ` +
      `${totals.nearDuplicates} near-duplicate${totals.nearDuplicates === 1 ? "" : "s"}, ${totals.problems} description problem${totals.problems === 1 ? "" : "s"}`,
  );
  return `${out.join("\n")}\n`;
}

function findabilityLines(skill: SkillReport): string[] {
  const score = skill.findability === null ? "no phrase to try" : String(skill.findability);
  const head = `  ${shown(skill.id)}  ${score}`;
  if (skill.collision) {
    const { id, phrases } = skill.collision;
    return [
      `${head}  COLLISION: ${shown(id)} comes first on ${phrases.length} of its ${skill.phrases.length} phrases`,
      ...skill.phrases.map((result) => `      ${quoted(result.phrase)}: ${placeOf(result)}`),
    ];
  }
  const missed = skill.phrases.filter((result) => result.rank !== 1);
  return [head, ...missed.map((result) => `      ${quoted(result.phrase)}: ${placeOf(result)}`)];
}

function placeOf(result: { rank: number | undefined; above: readonly string[] }): string {
  const where = result.rank === undefined ? "not in the first 10" : ordinal(result.rank);
  return result.above.length > 0 ? `${where}, after ${result.above.map(shown).join(", ")}` : where;
}

function listingLines(listings: readonly AgentListing[]): string[] {
  if (listings.length === 0) return ["  no agent's folders hold skills"];
  const lines: string[] = [];
  const unknown = listings.filter((listing) => !listing.budget);
  for (const listing of listings.filter((candidate) => candidate.budget)) {
    const budget = listing.budget!;
    const share = Math.round((100 * listing.chars) / budget.chars);
    lines.push(
      `  ${listing.agentName} (${listing.folders.join(", ")}): ${listing.skills} skills take ${chars(listing.chars)} characters, ` +
        `${share}% of its ${chars(budget.chars)} (${budget.basis})`,
    );
    if (listing.overflow) {
      lines.push(`    OVERFLOW: ${listing.overflow.outcome}`);
      if (listing.overflow.skillsDropped.length > 0)
        lines.push(
          `    left out: ${listing.overflow.skillsDropped.slice(0, 20).map(shown).join(", ")}${listing.overflow.skillsDropped.length > 20 ? ", …" : ""}`,
        );
    }
    lines.push(`    budget: ${budget.sources.join(" ")}`);
  }
  for (const listing of unknown) {
    const cut = listing.undocumentedCut ? `; it is seen to cut its listing (${listing.undocumentedCut})` : "";
    lines.push(
      `  ${listing.agentName} (${listing.folders.join(", ")}): ${listing.skills} skills take ${chars(listing.chars)} characters; ` +
        `its listing budget is not documented${cut}`,
    );
  }
  if (listings.some((listing) => listing.overflow))
    lines.push(
      "  Fix: serve them through skills-kernel so search finds them: keep in the agent's own folder the few it must",
      "  always list, move the rest to a folder only skills-kernel serves (skills-kernel --skills-dir ~/skills), and",
      "  search_skills finds every one, whatever the listing holds.",
    );
  return lines;
}
