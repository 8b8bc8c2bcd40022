import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { ConfigError } from "../../src/kernel/errors.js";

/** The message a mistake gets, one line for stderr. */
function refusal(argv: string[]): string {
  try {
    parseCliArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

describe("npx skills' spellings (skills 1.7.4)", () => {
  it.each([
    ["ls", "installed"],
    ["rm", "remove"],
    ["find", "search"],
    ["check", "outdated"],
    ["upgrade", "update"],
  ])("%s runs %s", (alias, command) => {
    const argv = alias === "rm" || alias === "find" ? [alias, "pdf"] : [alias];
    expect(parseCliArgs(argv)).toMatchObject({ command, commandNamed: true });
  });

  it("takes its short flags where the meaning is the same", () => {
    expect(parseCliArgs(["add", "acme/skills", "-y", "-g", "-a", "cursor", "-a", "codex", "-s", "pdf"])).toMatchObject({
      command: "add",
      yes: true,
      global: true,
      agents: ["cursor", "codex"],
      skills: ["pdf"],
    });
    expect(parseCliArgs(["add", "acme/skills", "-l"])).toMatchObject({ listOnly: true });
    expect(parseCliArgs(["add", "acme/skills", "--list"])).toMatchObject({ listOnly: true });
    expect(parseCliArgs(["rm", "pdf", "-a", "cursor", "-y"])).toMatchObject({ agents: ["cursor"], yes: true });
    expect(parseCliArgs(["ls", "-g", "-a", "cursor"])).toMatchObject({ command: "installed", global: true });
    expect(parseCliArgs(["update", "-y"])).toMatchObject({ command: "update", yes: true });
  });

  it("rm -s NAME is rm NAME; rm takes names, not '*'", () => {
    expect(parseCliArgs(["rm", "-s", "pdf", "-s", "docx"])).toMatchObject({
      command: "remove",
      skills: ["pdf", "docx"],
    });
    expect(refusal(["rm", "--skill", "*"])).toBe(
      'remove takes skill names, not "*"; skills-kernel installed lists them',
    );
    expect(refusal(["rm"])).toBe("remove needs NAME... (or --skill NAME); see --help");
  });

  it("reads '*' as every agent and every skill", () => {
    expect(parseCliArgs(["add", "acme/skills", "--agent", "*", "--skill", "*"])).toMatchObject({
      agents: [],
      allAgents: true,
      skills: [],
    });
  });

  it("says --agent takes one agent when a second follows it, as npx skills' --agent a b", () => {
    expect(refusal(["add", "acme/skills", "-a", "claude-code", "cursor"])).toBe(
      'unexpected argument "cursor" (--agent takes one agent each time: --agent claude-code --agent cursor); see --help',
    );
    expect(refusal(["add", "acme/skills", "stray"])).toBe('unexpected argument "stray"; see --help');
  });

  it("a short flag another command takes is named with that command", () => {
    expect(refusal(["list", "-y"])).toBe(
      "list takes no -y option (add, update, remove take it); see skills-kernel list --help",
    );
  });
});

describe("an unknown command", () => {
  it.each([
    ["instal", "install"],
    ["updat", "update"],
    ["lst", "list"],
    ["remvoe", "remove"],
    ["experimental_install", "restore"],
  ])("%s: did you mean %s?", (word, near) => {
    expect(refusal([word])).toBe(
      `unknown command "${word}"; did you mean ${near}? (skills-kernel --help lists every command)`,
    );
  });

  it("far from every command lists them all", () => {
    expect(refusal(["frobnicate"])).toMatch(/^unknown command "frobnicate"; commands: serve, list, search, /);
  });
});

describe("--ranker", () => {
  it("takes bm25, fuse or semantic, and refuses anything else in one line", () => {
    expect(parseCliArgs(["serve", "--ranker", "semantic"]).ranker).toBe("semantic");
    expect(parseCliArgs(["search", "x", "--ranker", "fuse"]).ranker).toBe("fuse");
    expect(parseCliArgs(["serve"]).ranker).toBeUndefined();
    expect(refusal(["serve", "--ranker", "vectors"])).toBe(
      '--ranker must be one of bm25, fuse, semantic, not "vectors"',
    );
    expect(refusal(["serve", "--ranker", ""])).toBe("--ranker needs a value");
  });
});
