import { mkdir, writeFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { stringify } from "yaml";
import { errorMessage, UserError } from "../kernel/errors.js";
import { validateSkillDocument } from "../skills/skill-md/skill-spec.js";
import type { CliIo } from "./io.js";

export interface InitOptions {
  readonly description?: string;
  readonly references: boolean;
  readonly scripts: boolean;
}

const PLACEHOLDER = "Say what this skill does and when an agent should use it (the agent reads this to decide).";

/**
 * `skills-kernel init NAME`: a new skill folder NAME (a path; its last part is the skill's name)
 * with a SKILL.md the spec accepts, and references/ and scripts/ when asked. The name is checked
 * against the spec before anything is written, and an existing folder is never touched.
 */
export async function runInit(path: string, options: InitOptions, io: CliIo): Promise<number> {
  const folder = resolve(io.cwd, path);
  const name = basename(folder);
  const text = skillMd(name, options.description?.trim() || PLACEHOLDER);
  const problem = validateSkillDocument(text, name).errors[0];
  if (problem) throw new UserError(`cannot make a skill named "${name}": ${problem.field}: ${problem.message}`, 2);
  try {
    await mkdir(folder, { recursive: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new UserError(`${folder} exists already; init makes a new folder only`, 1);
    throw new UserError(`cannot make ${folder}: ${code ?? errorMessage(error)}`, 1);
  }
  await writeFile(`${folder}/SKILL.md`, text, { flag: "wx" });
  const made = ["SKILL.md"];
  if (options.references) {
    await mkdir(`${folder}/references`);
    await writeFile(
      `${folder}/references/REFERENCE.md`,
      `# ${name}: reference\n\nDetail the agent reads only when SKILL.md points it here.\n`,
      { flag: "wx" },
    );
    made.push("references/REFERENCE.md");
  }
  if (options.scripts) {
    await mkdir(`${folder}/scripts`);
    await writeFile(
      `${folder}/scripts/run.sh`,
      `#!/bin/sh\n# A script SKILL.md tells the agent to run.\necho "${name}"\n`,
      { flag: "wx", mode: 0o755 },
    );
    made.push("scripts/run.sh");
  }
  io.stdout.write(`made ${folder} (${made.join(", ")})\n`);
  if (!options.description)
    io.stdout.write(
      "next: write the description and instructions in SKILL.md, then: skills-kernel validate " + path + "\n",
    );
  return 0;
}

function skillMd(name: string, description: string): string {
  return `---\n${stringify({ name, description }, { lineWidth: 0 })}---\n\n# ${name}\n\nThe steps an agent follows, in order. Keep this file short; move long detail into references/.\n`;
}
