// The bm25 ranker as it was at a git commit, for measuring a change against what it replaces in
// one process: bench/search.ts (speed) and scripts/compare-rankers.ts (identical results).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Ranker } from "../src/skills/types.js";

/**
 * The bm25 ranker's source at a commit, extracted under node_modules/.cache (where its imports
 * resolve, and which is neither committed nor type-checked) and imported from there.
 */
export async function baselineRanker(ref: string): Promise<{ commit: string; create: () => Ranker }> {
  const source = baselineSource(ref);
  if (!source) {
    console.error(`--baseline ${ref}: not a commit of this repository`);
    process.exit(2);
  }
  const { Bm25Ranker: Baseline } = (await import(source.url("src/plugins/rankers/ranker-bm25/ranker.ts"))) as {
    Bm25Ranker: new () => Ranker;
  };
  return { commit: source.commit, create: () => new Baseline() };
}

/**
 * The repository's src/ at a commit, extracted as above: `url` gives a file's URL there to import.
 * Undefined when git does not know the commit (a shallow clone, a tarball without .git).
 */
export function baselineSource(ref: string): { commit: string; url: (path: string) => string } | undefined {
  let commit: string;
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "--verify", `${ref}^{commit}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
  const dir = fileURLToPath(new URL(`../node_modules/.cache/bench-search-baseline/${commit}/`, import.meta.url));
  if (!existsSync(join(dir, "src"))) {
    // Extracted aside and moved into place whole, so an interrupted run leaves no half copy behind.
    const partial = `${dir.replace(/\/$/, "")}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    writeFileSync(join(partial, "package.json"), '{ "type": "module" }\n');
    execFileSync("tar", ["-x", "-C", partial], {
      input: execFileSync("git", ["archive", commit, "src"], { maxBuffer: 256 * 2 ** 20 }),
    });
    if (existsSync(join(dir, "src"))) rmSync(partial, { recursive: true, force: true });
    else {
      rmSync(dir, { recursive: true, force: true });
      renameSync(partial, dir);
    }
  }
  return { commit, url: (path) => pathToFileURL(join(dir, path)).href };
}
