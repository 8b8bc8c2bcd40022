import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";
import { CLAUDE } from "../helpers/runtimes.js";

// Claude Code's own validator on the repo's plugin and marketplace (.claude-plugin/), warnings
// counted as errors. A scratch HOME, telemetry and nonessential traffic off.
it("claude plugin validate --strict accepts the plugin and its marketplace, with one piece of advice", async () => {
  const home = await mkdtemp(join(tmpdir(), "skills-kernel-claude-"));
  try {
    const env = {
      ...process.env,
      HOME: home,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    };
    for (const target of [".", ".claude-plugin/plugin.json"]) {
      const run = spawnSync(CLAUDE, ["plugin", "validate", "--strict", "--json", target], {
        cwd: REPO_ROOT,
        env,
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { success: boolean; provides: { mcpServers: { name: string }[] } };
      expect(report.success).toBe(true);
      expect(report.provides.mcpServers.map((server) => server.name)).toEqual(["skills"]);
    }
    // Its one piece of advice is the README's marketplace install line: it could not start the
    // plugin's server before the package is on npm, so docs/releasing.md adds it at the first release.
    const run = spawnSync(CLAUDE, ["plugin", "validate", "--strict", "--json", "."], {
      cwd: REPO_ROOT,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    const { advice } = JSON.parse(run.stdout) as { advice: { file: string; installLine?: string }[] };
    expect(advice.map(({ file, installLine }) => [relative(REPO_ROOT, file), installLine])).toEqual([
      ["README.md", "/plugin install skills-kernel --marketplace <owner>/<repo>"],
    ]);
    const releasing = (await readFile(join(REPO_ROOT, "docs/releasing.md"), "utf8")).replace(/\s+/g, " ");
    expect(releasing).toContain(
      `\`${advice[0]!.installLine!.replace("<owner>/<repo>", "skills-kernel/skills-kernel")}\``,
    );
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
