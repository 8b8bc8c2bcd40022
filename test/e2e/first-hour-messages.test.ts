import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, runCli } from "../helpers/cli.js";
import { HAS_SCRIPT, needsScript } from "../helpers/tools.js";

/**
 * What a newcomer reads when something is off, through dist/cli.js: a config that imports
 * skills-kernel with nothing installed, a plugin name with a typo or not installed, skill
 * warnings at --log-level warn, and installing into a folder a plain `skills-kernel` serves.
 */
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "sk-first-hour-")));
  await writeFile(join(work, "package.json"), "{}");
  env = { HOME: join(work, "home") };
  const skill = (folder: string, frontmatter: string) =>
    mkdir(join(work, "skills", folder), { recursive: true }).then(() =>
      writeFile(join(work, "skills", folder, "SKILL.md"), `---\n${frontmatter}\n---\n# body\n`),
    );
  await skill("pdf", "name: pdf\ndescription: Fill in PDF forms.");
  // Served with a warning: the name differs from the folder.
  await skill("old-folder", "name: renamed\ndescription: A skill whose folder kept its old name.");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function oneLine(result: { code: number | null; stdout: string; stderr: string }): string {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  const lines = result.stderr.split("\n").filter((line) => line.startsWith("skills-kernel: "));
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe("config mistakes a newcomer makes", () => {
  it("a TypeScript config importing skills-kernel, with skills-kernel not installed beside it, says how to fix it", async () => {
    await writeFile(
      join(work, "plugins.config.ts"),
      `import { defineConfig } from "skills-kernel";\nexport default defineConfig({ plugins: ["list-skills"] });\n`,
    );
    const line = oneLine(await runCli(["list", "--config", "plugins.config.ts"], { cwd: work, env }));
    expect(line).toMatch(
      /^skills-kernel: plugins\.config\.ts: cannot load: Cannot find (?:module|package) 'skills-kernel'/,
    );
    expect(line).toContain(
      "(skills-kernel is not installed beside the config: install it there, npm install /path/to/skills-kernel-0.1.0.tgz (npm pack in a checkout makes it) or npm install /path/to/its/checkout, or drop the import and export a plain object: export default { plugins: [...] })",
    );
  });

  it("a typo of a built-in gets the built-in it is nearest to", async () => {
    await writeFile(join(work, "typo.yaml"), "plugins: [fs, serach-skills]\n");
    expect(oneLine(await runCli(["list", "--config", "typo.yaml"], { cwd: work, env }))).toBe(
      'skills-kernel: typo.yaml: plugin "serach-skills" is not a built-in; did you mean "search-skills"?',
    );
  });

  it("a package that is not installed gets the npm install command and where it was looked for", async () => {
    await writeFile(join(work, "package.yaml"), "plugins: [skills-kernel-plugin-nope, list-skills]\n");
    const line = oneLine(await runCli(["list", "--config", "package.yaml"], { cwd: work, env }));
    expect(line).toContain(
      `plugin "skills-kernel-plugin-nope" is not a built-in, and no package of that name is installed (looked in node_modules in ${work} and every folder above it): run npm install skills-kernel-plugin-nope in ${work};`,
    );
  });
});

describe("warnings", () => {
  it("--log-level warn shows a skill's warning; --log-level error does not", async () => {
    const warn = await runCli(["list", "--skills-dir", "skills", "--log-level", "warn"], { cwd: work, env });
    expect(warn.code).toBe(0);
    expect(warn.stdout).toBe("pdf\nrenamed\n");
    expect(warn.stderr).toMatch(/warn: skills:old-folder: .*renamed.*old-folder/);
    const quiet = await runCli(["list", "--skills-dir", "skills", "--log-level", "error"], { cwd: work, env });
    expect(quiet).toMatchObject({ code: 0, stdout: "pdf\nrenamed\n", stderr: "" });
  });

  // script(1) gives the server a terminal, so it prints its banner.
  it.skipIf(!HAS_SCRIPT)(needsScript("the banner counts the warnings and says where they are"), async () => {
    const banner = async (level: string) => {
      const line = [...RUNTIMES.node, "--skills-dir", "skills", "--log-level", level].map((w) => `'${w}'`).join(" ");
      const child = spawn("script", ["-qec", line, "/dev/null"], {
        cwd: work,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no banner; got: ${output}`)), 20_000);
        const check = () => (output.includes("Ctrl-C") ? (clearTimeout(deadline), resolve()) : setTimeout(check, 20));
        check();
      });
      child.kill("SIGTERM");
      return output;
    };
    const shown = await banner("info");
    expect(shown).toMatch(/warn: skills:old-folder: /);
    expect(shown).toContain("0 skipped, 1 warning: each is logged above");
    const hidden = await banner("error");
    expect(hidden).not.toMatch(/skills:old-folder/);
    expect(hidden).toContain("0 skipped, 1 warning: run with --log-level warn to see them");
  });

  it("install --skills-dir into .claude/skills does not warn it is not served; into another folder it does", async () => {
    const project = await runCli(["install", "pdf", "--skills-dir", "skills", "--to", "project"], { cwd: work, env });
    expect(project.code).toBe(0);
    expect(project.stdout).toContain(`into ${join(work, ".claude/skills/pdf")}`);
    expect(project.stdout).not.toContain("is not served");
    const vendor = await runCli(["install", "pdf", "--skills-dir", "skills", "--to", "./vendor"], { cwd: work, env });
    expect(vendor.code).toBe(0);
    expect(vendor.stdout).toContain(`target ${join(work, "vendor")} is not served by any source`);
  });
});
