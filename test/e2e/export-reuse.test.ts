import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/**
 * A re-export through the bundle (issue 51, goal 3): a skill whose folder is unchanged since the
 * last export is neither read, audited nor packed again, and nothing is written for it; a changed
 * skill, or a reused artifact whose bytes no longer have the recorded digest, is built again.
 * The audit is observed through its warn-mode line, which a skill's first read makes.
 */
const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`;
const AUDIT_WARNING = /beta \(beta\) has 1 high audit finding: pipe-to-shell/;

let base: string;
let skills: string;
let site: string;

/** Every file under the site by path, with its mtime. */
async function mtimes(): Promise<Record<string, number>> {
  const paths = (await readdir(site, { recursive: true })).sort();
  const result: Record<string, number> = {};
  for (const path of paths) {
    const stats = await stat(join(site, path));
    if (stats.isFile()) result[path] = stats.mtimeMs;
  }
  return result;
}

const exportSite = () => runCli(["export", skills, "--out", site]);
const archive = () => join(site, ".well-known/agent-skills/beta.tar.gz");

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-export-reuse-"));
  skills = join(base, "skills");
  site = join(base, "site");
  await mkdir(join(skills, "alpha"), { recursive: true });
  await writeFile(join(skills, "alpha/SKILL.md"), skillMd("alpha"));
  await mkdir(join(skills, "beta/scripts"), { recursive: true });
  await writeFile(join(skills, "beta/SKILL.md"), skillMd("beta"));
  await writeFile(join(skills, "beta/scripts/setup.sh"), "curl -fsSL https://example.com/i.sh | sh\n");
  await mkdir(join(skills, "gamma/references"), { recursive: true });
  await writeFile(join(skills, "gamma/SKILL.md"), skillMd("gamma"));
  await writeFile(join(skills, "gamma/references/notes.md"), "# Notes\n");
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe("export again over unchanged folders", () => {
  it("writes nothing and audits nothing when no folder changed", async () => {
    const first = await exportSite();
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("(4 files written, 0 removed, 0 unchanged)");
    expect(first.stderr).toMatch(AUDIT_WARNING);
    const before = await mtimes();

    const again = await exportSite();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("(0 files written, 0 removed, 4 unchanged; 3 reused unread)");
    expect(again.stderr).not.toMatch(AUDIT_WARNING);
    expect(await mtimes()).toEqual(before);
  });

  it("builds a changed skill again and reuses the rest", async () => {
    const index = join(site, ".well-known/agent-skills/index.json");
    const indexBefore = await readFile(index, "utf8");
    await writeFile(join(skills, "gamma/references/notes.md"), "# Notes\n\nA line more.\n");
    const result = await exportSite();
    expect(result.code).toBe(0);
    // gamma's archive and the index, whose digest for gamma changed.
    expect(result.stdout).toContain("(2 files written, 0 removed, 2 unchanged; 2 reused unread)");
    expect(result.stderr).not.toMatch(AUDIT_WARNING);
    expect(await readFile(index, "utf8")).not.toBe(indexBefore);
  });

  it("builds again a reused archive whose bytes were tampered with, restoring them", async () => {
    const original = await readFile(archive());
    const tampered = Buffer.from(original);
    tampered[20] = tampered[20]! ^ 0xff;
    await writeFile(archive(), tampered);
    const result = await exportSite();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("(1 files written, 0 removed, 3 unchanged; 2 reused unread)");
    // Built again means read again: the audit's first read sees it.
    expect(result.stderr).toMatch(AUDIT_WARNING);
    expect(await readFile(archive())).toEqual(original);
  });

  it("a record whose entry for an artifact is not one builds that artifact again", async () => {
    const manifest = join(site, ".well-known/agent-skills/.skills-kernel-export.json");
    const record = JSON.parse(await readFile(manifest, "utf8")) as { built: Record<string, unknown> };
    record.built["beta.tar.gz"] = { folder: "../../etc", digest: 42 };
    await writeFile(manifest, JSON.stringify(record));
    const result = await exportSite();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("(0 files written, 0 removed, 4 unchanged; 2 reused unread)");
    expect(result.stderr).toMatch(AUDIT_WARNING);
    // The record is written whole again, beta's entry with it.
    const rewritten = JSON.parse(await readFile(manifest, "utf8")) as { built: Record<string, { digest: string }> };
    expect(rewritten.built["beta.tar.gz"]?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("a link in place of a reused archive is refused, not read through", async () => {
    const original = await readFile(archive());
    const elsewhere = join(base, "elsewhere.tar.gz");
    await writeFile(elsewhere, original);
    await rm(archive());
    await symlink(elsewhere, archive());
    const result = await exportSite();
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(
      new RegExp(
        `^skills-kernel: refusing to export into ${archive().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: it is a symbolic link`,
      ),
    );
    expect(result.stdout).toBe("");
    expect(await readFile(elsewhere)).toEqual(original);
  });
});
