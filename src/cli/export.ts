import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { SkillsKernel } from "../create-kernel.js";
import { INDEX_FILE, SiteBuilder, WELL_KNOWN_PATH } from "../plugins/transports/well-known/index.js";

/**
 * `skills-kernel export DIR --out SITE`: the discovery site the http transport serves, as files
 * for any static host. A file whose bytes are unchanged is not rewritten, and files a previous
 * export left under `.well-known/agent-skills` that are no longer part of the site are removed.
 */
export async function runExport(kernel: SkillsKernel, out: string, baseUrl: string | undefined): Promise<number> {
  await kernel.catalog.ready();
  const site = await new SiteBuilder(kernel.logger).build(kernel.catalog, new AbortController().signal, baseUrl);
  const root = join(out, ...WELL_KNOWN_PATH.split("/").filter(Boolean));
  const files = new Map<string, Uint8Array>([[INDEX_FILE, site.indexBytes]]);
  for (const [path, artifact] of site.artifacts) files.set(path, artifact.bytes);
  let written = 0;
  for (const [path, bytes] of files) {
    const target = join(root, ...path.split("/"));
    if (await sameBytes(target, bytes)) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
    written += 1;
  }
  const removed = await removeStale(root, root, new Set(files.keys()));
  for (const left of site.leftOut)
    process.stderr.write(`skills-kernel: ${left.skill} left out (${left.code}): ${left.reason}\n`);
  process.stdout.write(
    `exported ${site.index.skills.length} skill${site.index.skills.length === 1 ? "" : "s"} to ${join(out, WELL_KNOWN_PATH.slice(1))} (${written} files written, ${removed} removed, ${files.size - written} unchanged${site.leftOut.length > 0 ? `; ${site.leftOut.length} left out` : ""})\n`,
  );
  return 0;
}

async function sameBytes(path: string, bytes: Uint8Array): Promise<boolean> {
  try {
    return Buffer.from(bytes).equals(await readFile(path));
  } catch {
    return false;
  }
}

/** Remove files under `folder` that the site no longer holds, then folders left empty; returns how many files. */
async function removeStale(root: string, folder: string, kept: ReadonlySet<string>): Promise<number> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      removed += await removeStale(root, path, kept);
      await rmdir(path).catch(() => undefined);
    } else if (!kept.has(relative(root, path).split(sep).join("/"))) {
      await rm(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}
