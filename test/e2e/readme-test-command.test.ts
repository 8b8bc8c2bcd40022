import { spawn, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/**
 * README's `npm test` on a fresh machine: a clone with no ../shared beside it, no nginx and no
 * Chromium. Running the whole suite inside the suite would double CI's time, so this runs the
 * files whose tests need those and checks what a fresh machine gets from them: a passing run whose
 * last lines say what was skipped and why.
 */
describe("README's test command in a clean clone without ../shared, nginx or Chromium", () => {
  let base: string;
  let clone: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "sk-readme-test-"));
    // Inside a folder of its own, so the clone's ../shared is this test's (absent).
    clone = join(base, "skills-kernel");
    const files = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
      cwd: REPO,
      encoding: "utf8",
    });
    expect(files.status, files.stderr).toBe(0);
    for (const file of files.stdout.split("\n").filter(Boolean)) {
      await mkdir(dirname(join(clone, file)), { recursive: true });
      // A file deleted but not yet staged is listed; a clone would not have it either.
      await copyFile(join(REPO, file), join(clone, file)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
    // What `npm ci` installs and `npm test` builds first: linked rather than made again.
    await symlink(join(REPO, "node_modules"), join(clone, "node_modules"));
    await symlink(join(REPO, "dist"), join(clone, "dist"));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("passes, and ends by naming each reason tests were skipped for", async () => {
    const { SKILLS_KERNEL_SHARED: _shared, ...env } = process.env;
    const run = spawn(
      process.execPath,
      [
        join(clone, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "test/plugins/sources/fs/corpus.test.ts",
        "test/e2e/http-replicas.test.ts",
        "test/e2e/catalog-page.test.ts",
      ],
      { cwd: clone, env: { ...env, SKILLS_KERNEL_TEST_WITHOUT: "nginx,chromium", NO_COLOR: "1", CI: "true" } },
    );
    let output = "";
    run.stdout.on("data", (chunk: Buffer) => (output += chunk));
    run.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => run.on("close", resolve));
    expect(code, output).toBe(0);
    const last = output.trimEnd().split("\n").slice(-4);
    expect(last[0], output).toBe(" Skipped tests, by reason:");
    const reasons = last.slice(1).map((line) => line.replace(/^ +\d+ skipped: /, ""));
    expect(reasons.sort(), output).toEqual([
      `${join(base, "shared", "corpus")} is absent`,
      "nginx is not installed; .ci/run installs it",
      "no Chromium (SKILLS_KERNEL_TEST_WITHOUT names it)",
    ]);
  });
});
