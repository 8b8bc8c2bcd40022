import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));

/** A plugin author's view of a config's tools, through the bundle: list them, then call one. */
describe("skills-kernel tools and call", () => {
  it("lists the tools the config registers, one line each, or as JSON", async () => {
    const listed = await runCli(["tools", "--skills-dir", EXAMPLES]);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(
      expect.arrayContaining(["list_skills", "search_skills", "read_skill"]),
    );
    for (const line of lines) expect(line).toMatch(/^\S+ +\S/);
    const json = await runCli(["tools", "--json", "--skills-dir", EXAMPLES]);
    const tools = JSON.parse(json.stdout) as { name: string; description: string }[];
    expect(tools.map((tool) => tool.name)).toEqual(lines.map((line) => line.split(/\s+/)[0]));
  });

  it("calls a tool with --args and prints its structured answer", async () => {
    const names = await runCli(["list", "--skills-dir", EXAMPLES]);
    const first = names.stdout.split("\n")[0]!;
    const called = await runCli([
      "call",
      "read_skill",
      "--args",
      JSON.stringify({ skill_name: first }),
      "--skills-dir",
      EXAMPLES,
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ name: first });
  });

  it.each([
    [
      ["call", "nope"],
      /^skills-kernel: no tool named "nope" in this config; skills-kernel tools lists them: list_skills, /,
    ],
    [["call", "read_skill", "--args", "[1"], /^skills-kernel: --args must be a JSON object: /],
    [["call", "read_skill", "--args", "[1]"], /^skills-kernel: --args must be a JSON object, like /],
  ])("refuses %j in one line, exit 2", async (argv, pattern) => {
    const result = await runCli([...argv, "--skills-dir", EXAMPLES]);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
  });

  it("reports a tool's own error on stderr, exit 1", async () => {
    const result = await runCli([
      "call",
      "read_skill",
      "--args",
      '{"skill_name":"no-such-skill"}',
      "--skills-dir",
      EXAMPLES,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^skills-kernel: read_skill: no skill named "no-such-skill"/);
  });
});
