import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-plugin-failures-"));
  await writeFile(join(work, "package.json"), "{}");
  await writeFile(
    join(work, "buggy.mjs"),
    `export default { name: "buggy", setup() { const config = undefined; return config.roots.length; } };\n`,
  );
  // Holds the event loop for a minute, as a plugin stuck on a socket would.
  await writeFile(
    join(work, "stuck.mjs"),
    `export default { name: "stuck", setup: () => new Promise((resolve) => setTimeout(resolve, 60_000)) };\n`,
  );
  await writeFile(join(work, "buggy.config.mjs"), `export default { plugins: ["./buggy.mjs", "list-skills"] };\n`);
  await writeFile(
    join(work, "stuck.config.mjs"),
    `export default { plugins: ["./stuck.mjs", "list-skills"], startup: { setupTimeoutMs: 300 } };\n`,
  );
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.each(Object.keys(RUNTIMES) as Runtime[])("a failing plugin on %s", (runtime) => {
  it("reports a plugin's bug in one line, exit 1, and its stack only at debug", async () => {
    const quiet = await runCli(["list", "--config", "buggy.config.mjs"], { cwd: work, runtime });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe("");
    expect(quiet.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        /^skills-kernel: plugin "buggy": setup failed: .+ \(a bug in that plugin; run with --log-level debug for the stack\)$/,
      ),
    ]);
    const loud = await runCli(["list", "--config", "buggy.config.mjs", "--log-level", "debug"], { cwd: work, runtime });
    expect(loud.code).toBe(1);
    expect(loud.stderr).toMatch(/caused by: TypeError/);
    expect(loud.stderr).toMatch(/\n\s+at .*buggy\.mjs/);
  });

  it("exits once a setup has timed out, though the plugin still holds the event loop", async () => {
    const result = await runCli(["list", "--config", "stuck.config.mjs"], { cwd: work, runtime, timeoutMs: 30_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('skills-kernel: plugin "stuck": setup timed out after 300 ms');
  });
});
