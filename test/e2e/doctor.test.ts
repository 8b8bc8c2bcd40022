import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";
import { sarifSchemaErrors } from "../helpers/sarif-schema.js";
import { tempDir } from "../plugins/sources/fs/files.js";

/**
 * `skills-kernel doctor` through the bundle, in a scratch project and home: it finds a planted
 * collision (a skill whose own phrases find another) and a planted overflow (more skills in
 * Claude Code's folder than its listing budget holds), and passes a clean set.
 */
const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));

async function writeSkill(root: string, name: string, description: string): Promise<void> {
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`);
}

/** A project holding `team/`: csv-tidy's "when" is csv-cleaner's, which says those words more. */
async function project(): Promise<{ cwd: string; home: string }> {
  const cwd = await tempDir();
  const home = await tempDir();
  const team = join(cwd, "team");
  await writeSkill(
    team,
    "csv-cleaner",
    "Cleans CSV files: fixes CSV encodings and repairs CSV quoting. Use when fixing CSV encodings, repairing CSV quoting, or cleaning a CSV export.",
  );
  await writeSkill(
    team,
    "csv-tidy",
    "Tidies spreadsheets for analysts, reports, dashboards and finance teams in many formats and tools. Use when fixing CSV encodings, or repairing CSV quoting.",
  );
  return { cwd, home };
}

const doctor = (args: string[], where: { cwd: string; home: string }, runtime: Runtime = "node") =>
  runCli(["doctor", ...args], {
    cwd: where.cwd,
    env: { HOME: where.home, CLAUDE_CONFIG_DIR: "" },
    runtime,
    timeoutMs: 60_000,
  });

describe.each(Object.keys(RUNTIMES) as Runtime[])("skills-kernel doctor (bundle) on %s", (runtime) => {
  it("passes a clean set: every skill first on its own phrases, no listing over budget", async () => {
    const where = { cwd: await tempDir(), home: await tempDir() };
    const result = await doctor(["--skills-dir", EXAMPLES], where, runtime);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^3 skills reviewed/);
    expect(result.stdout).toContain(
      "  3 first on every phrase: changelog-curator, commit-message-writer, readme-reviewer\n",
    );
    expect(result.stdout).toContain("no agent's folders hold skills");
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(
      "0 collisions, 0 listing overflows, 0 near-duplicates, 0 description problems",
    );
  });

  it("finds a planted collision among the folders given, ranked against everything served, and exits 1", async () => {
    const where = await project();
    const result = await doctor(["team", "--skills-dir", EXAMPLES], where, runtime);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^2 skills reviewed, .* among the 5 skills served/);
    expect(result.stdout).toContain("  csv-tidy  67  COLLISION: csv-cleaner comes first on 2 of its 3 phrases\n");
    expect(result.stdout).toContain('      "fixing CSV encodings": 2nd, after csv-cleaner\n');
  });
});

describe("skills-kernel doctor (bundle)", () => {
  it("reports the collision as JSON, and as SARIF 2.1.0 at the skill's description", async () => {
    const where = await project();
    const json = await doctor(["team", "--skills-dir", EXAMPLES, "--format", "json"], where);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      skills: { id: string; location: string; collision: { id: string; phrases: string[] } | null }[];
      totals: { collisions: number; overflows: number };
    };
    expect(report.totals).toMatchObject({ collisions: 1, overflows: 0 });
    expect(report.skills.find((skill) => skill.id === "csv-tidy")).toMatchObject({
      location: join("team", "csv-tidy"),
      collision: { id: "csv-cleaner", phrases: ["fixing CSV encodings", "repairing CSV quoting"] },
    });

    const sarif = await doctor(["team", "--skills-dir", EXAMPLES, "--format", "sarif"], where);
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: object }[] }[] }[];
    };
    expect(sarifSchemaErrors(log)).toBe("");
    const collision = log.runs[0]!.results.find((result) => result.ruleId === "skill-collision")!;
    expect(collision.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: "team/csv-tidy/SKILL.md", uriBaseId: "%SRCROOT%" },
      region: { startLine: 3 },
    });
  });

  it("finds a planted overflow of Claude Code's listing budget, names its source and the fix, and exits 1", async () => {
    const where = { cwd: await tempDir(), home: await tempDir() };
    const folder = join(where.cwd, ".claude", "skills");
    for (let i = 0; i < 40; i++)
      await writeSkill(
        folder,
        `tool-${i}`,
        `Runs tool number ${i} over the project's files, with every option it has explained at length. ${"Use when the task needs that tool. ".repeat(6)}`,
      );
    const result = await doctor(["--skills-dir", EXAMPLES], where);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /Claude Code \(.*\.claude\/skills\): 40 skills take [\d,]+ characters, \d+% of its 8,000 \(1% \(skillListingBudgetFraction\)/,
    );
    expect(result.stdout).toMatch(/OVERFLOW: at least \d+ of 40 skills are listed by name alone/);
    expect(result.stdout).toContain("https://code.claude.com/docs/en/skills#skill-descriptions-are-cut-short");
    expect(result.stdout).toContain("Fix: serve them through skills-kernel so search finds them");
  });

  it("refuses a DIR that is not a folder, in one line, with exit code 2", async () => {
    const where = { cwd: await tempDir(), home: await tempDir() };
    const result = await doctor(["missing"], where);
    expect(result).toMatchObject({ code: 2, stdout: "", stderr: "skills-kernel: missing is not a folder\n" });
  });
});
