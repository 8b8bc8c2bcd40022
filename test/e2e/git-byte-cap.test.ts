import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { createRepository, skill, type TestRepository } from "../plugins/sources/git/repos.js";

/**
 * A small repository that expands to far more on disk (64 MiB of zeros compress to a few
 * kilobytes): maxTotalBytes bounds a git checkout as it bounds an HTTP source, measured while git
 * writes, and nothing of the refused checkout is left in the cache. The bundle, a real repository.
 */
let base: string;
let repo: TestRepository;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-git-cap-"));
  repo = await createRepository({ "skills/small/SKILL.md": skill("small") }, base);
  await writeFile(join(repo.work, "skills", "small", "zeros.bin"), Buffer.alloc(64 * 1024 * 1024));
  await repo.commit({}, "a large file");
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The largest file under `dir`, in bytes (0 when it holds none). */
async function largestFile(dir: string): Promise<number> {
  let largest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) largest = Math.max(largest, (await stat(join(entry.parentPath, entry.name))).size);
  }
  return largest;
}

describe("maxTotalBytes over a git checkout", () => {
  it("refuses a checkout that grows past it, and leaves none of it behind", async () => {
    const config = join(base, "capped.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [["git", { repositories: [repo.url], maxTotalBytes: 4 * 1024 * 1024 }], "list-skills"],
      }),
    );
    const cache = join(base, "cache");
    const result = await runCli(["list", "--config", config], {
      cwd: base,
      env: { XDG_CACHE_HOME: cache, HOME: base },
      timeoutMs: 60_000,
    });
    expect(result.stdout.trim()).toBe("");
    expect(result.stderr).toContain("the checkout is larger than maxTotalBytes (4194304 bytes)");
    expect(await largestFile(join(cache, "skills-kernel", "git"))).toBeLessThan(4 * 1024 * 1024);
  });

  it("serves the same repository under a cap it fits in", async () => {
    const config = join(base, "roomy.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [["git", { repositories: [repo.url], maxTotalBytes: 256 * 1024 * 1024 }], "list-skills"],
      }),
    );
    const result = await runCli(["list", "--config", config], {
      cwd: base,
      env: { XDG_CACHE_HOME: join(base, "cache-roomy"), HOME: base },
      timeoutMs: 60_000,
    });
    expect(result.stdout, result.stderr).toBe("small\n");
  });
});
