import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_SPECS, COMMON, LIFECYCLE_COMMANDS, type Command } from "../../src/cli/commands.js";
import { commandHelp, generalHelp } from "../../src/cli/help.js";
import { runMain } from "../helpers/cli-in-process.js";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-help-"));
  // A package.json stops the config search here: help must not depend on a config anyway.
  await writeFile(join(work, "package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const COMMANDS = Object.keys(COMMAND_SPECS) as Command[];

describe("help", () => {
  it("--help names every command and says what each common option does", async () => {
    const help = await runMain(["--help"], { cwd: work });
    expect(help).toMatchObject({ code: 0, stderr: "" });
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  skills-kernel ${command}\\b`, "m"));
    for (const [name, option] of Object.entries(COMMON)) {
      // A long flag gets a line of its own, its words on the next.
      expect(help.stdout).toMatch(
        new RegExp(`^  (-., )?--${name}${"value" in option ? ` ${option.value}` : ""}(?: +|\\n {26})\\S`, "m"),
      );
    }
    expect(help.stdout).toContain("skills-kernel COMMAND --help");
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      " Of these, the installed-skills commands take only --allowed-signers FILE, --require-signed, --log-level LEVEL, --help and --version. ",
    );
  });

  // Needed arguments are not needed for help: `search --help` has no QUERY, `sign --help` no --key.
  it.each(COMMANDS)("%s --help prints its usage and each of its options, exit 0", async (command) => {
    const help = await runMain([command, "--help"], { cwd: work });
    expect(help).toMatchObject({ code: 0, stderr: "" });
    const spec = COMMAND_SPECS[command];
    expect(help.stdout.split("\n")[0]).toBe(
      `Usage: skills-kernel ${command}${spec.usage ? ` ${spec.usage}` : ""} [OPTIONS]`,
    );
    for (const [name, option] of Object.entries(spec.options)) {
      const short = "short" in option ? `-${option.short}, ` : "";
      expect(help.stdout).toMatch(
        new RegExp(`^  ${short}--${name}${"value" in option ? ` ${option.value}` : ""}(?: +|\\n {26})\\S`, "m"),
      );
    }
    // Another command's own option is not listed as this one's.
    const others = COMMANDS.filter((other) => other !== command).flatMap((other) =>
      Object.keys(COMMAND_SPECS[other].options),
    );
    const foreign = others.filter((name) => !(name in spec.options));
    for (const name of foreign) expect(help.stdout).not.toMatch(new RegExp(`^  (-., )?--${name}\\b`, "m"));
    // The installed-skills commands take no source flags (args.ts refuses them).
    if (LIFECYCLE_COMMANDS.has(command)) expect(help.stdout).not.toContain("--skills-dir");
    else expect(help.stdout).toContain("--skills-dir DIR");
  });

  it("names npx skills' spellings: in the general help, and in each command's", async () => {
    const help = await runMain(["--help"], { cwd: work });
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      " npx skills' names work too: ls (installed), rm (remove), find (search), check (outdated) and upgrade (update). ",
    );
    const ls = await runMain(["ls", "--help"], { cwd: work });
    expect(ls.stdout).toMatch(
      /^Usage: skills-kernel installed \[OPTIONS\]\n\ninstalled skills and their state\nAlso spelled ls, as npx skills spells it\.\n/,
    );
  });

  it("-h after a command is that command's help, and the short form works", async () => {
    const help = await runMain(["add", "-h"], { cwd: work });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: skills-kernel add SOURCE \[OPTIONS\]\n/);
    expect(help.stdout).toMatch(/^ {2}--token-env HOST=VAR +send \$VAR/m);
  });
});

describe("help's layout", () => {
  it("fits an 80-column terminal, each entry's words in the column after its name", () => {
    for (const text of [generalHelp(), ...COMMANDS.map((command) => commandHelp(command))]) {
      for (const line of text.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
      for (const line of text.split("\n").filter((l) => /^ {2}-/.test(l) && /\S {2,}\S/.test(l)))
        expect(line.search(/(?<=\S {2,})\S/), line).toBe(26);
    }
  });

  it("ends the general help with the exit codes", () => {
    expect(generalHelp()).toMatch(/\nExit codes: 0 success, 1 the operation failed, 2 usage or config error\.\n$/);
  });

  it("keeps a flag and its value on one line when the common options wrap", () => {
    for (const command of COMMANDS) {
      const common = commandHelp(command).split(/Options for every command|Common options it takes/)[1]!;
      expect(common).toContain("--log-level LEVEL");
      expect(common).not.toMatch(/--[a-z-]+\n[A-Z_]+\b/);
    }
  });
});
