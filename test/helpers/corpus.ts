import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "./cli.js";

/**
 * The skill names ../shared/corpus should serve, derived from its own MANIFEST.tsv and
 * ANOMALIES.txt rather than from our loader: every manifest row except the skills the rules skip
 * (no frontmatter or no description).
 */
export function expectedCorpusNames(): string[] {
  const anomalies = readFileSync(join(CORPUS, "ANOMALIES.txt"), "utf8");
  const skipped = new Set<string>();
  for (const line of anomalies.split("\n")) {
    const [repo, path, kind] = line.split("\t");
    if (kind && /^(no-frontmatter|missing-description)\b/.test(kind)) skipped.add(`${repo}\t${path}`);
  }
  const rows = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
  return rows
    .map((row) => row.split("\t"))
    .filter(([repo, , path]) => !skipped.has(`${repo}\t${path}`))
    .map(([, , , name]) => name!)
    .sort();
}
