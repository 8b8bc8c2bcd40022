import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

let dir: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "sk-internal-")));
  await writeFile(join(dir, "package.json"), "{}");
  await writeFile(
    join(dir, "late.mjs"),
    `export default { name: "late", setup() { return { start() { setTimeout(() => { throw new Error("late boom"); }, 1); } }; } };\n`,
  );
  await writeFile(
    join(dir, "stray.mjs"),
    `export default { name: "stray", setup() { Promise.reject(new Error("stray boom")); } };\n`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a bug outside the awaited path is one line, not a stack trace", () => {
  it.each([
    ["a throw in a plugin's timer", "late.mjs", "late boom"],
    ["a promise a plugin never awaits", "stray.mjs", "stray boom"],
  ])("%s", async (_, plugin, message) => {
    await writeFile(
      join(dir, "c.json"),
      JSON.stringify({ plugins: [`./${plugin}`, "list-skills", ["fs", { roots: ["."] }]] }),
    );
    // `list` would finish first; serving keeps the process up until the error fires.
    const result = await runCli(["--config", "c.json"], { cwd: dir, input: undefined, timeoutMs: 15_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `skills-kernel: internal error: ${message} (run with --log-level debug for details)\n`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
