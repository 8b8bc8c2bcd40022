import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/**
 * A FIFO (or any file that is not a regular one) wherever the CLI reads a path (issue 47, item 6):
 * refused in one line before it is opened, where an open waited for a writer forever. runCli kills
 * a run after 20 s, so a hang fails these tests instead of stalling them.
 */
const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`;
const fifo = (path: string) => execFileSync("mkfifo", [path]);

describe.skipIf(process.platform === "win32")("a FIFO given as a file", () => {
  let base: string;
  const run = (args: string[], cwd = base) =>
    runCli(args, {
      cwd,
      env: { HOME: join(base, "home"), XDG_CACHE_HOME: join(base, "cache"), SKILLS_KERNEL_TRUST_CONFIG: "" },
    });

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "sk-fifo-"));
    await mkdir(join(base, "skills/hello"), { recursive: true });
    await writeFile(join(base, "skills/hello/SKILL.md"), skillMd("hello"));
    for (const name of ["a", "b", "c", "d", "e", "f"]) fifo(join(base, `${name}.tar.gz`));
    fifo(join(base, "config.json"));
  });

  afterAll(async () => {
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("as --skills-archive: the source fails with the reason, the run exits", async () => {
    const result = await run(["list", "--skills-archive", "./a.tar.gz"]);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${join(base, "a.tar.gz")} is not a regular file but a FIFO`);
  });

  it("as six archives of a config: the fs root still loads and is listed", async () => {
    const config = join(base, "six.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["fs", { roots: ["./skills"] }],
          ["archive", { archives: ["a", "b", "c", "d", "e", "f"].map((name) => `./${name}.tar.gz`) }],
          "list-skills",
        ],
      }),
    );
    const result = await run(["list", "--config", config, "--format", "json"]);
    expect(result.signal).toBeNull();
    expect(result.stdout).toContain('"hello"');
    expect(result.stderr.match(/is not a regular file but a FIFO/g)).toHaveLength(6);
  });

  it("as --config: one line, exit 2", async () => {
    const result = await run(["list", "--config", "./config.json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("skills-kernel: config file ./config.json is a FIFO, not a regular file\n");
  });

  it("as skills-lock.json: restore names the file and exits", async () => {
    const project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    fifo(join(project, "skills-lock.json"));
    const result = await run(["restore"], project);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${join(project, "skills-lock.json")} is not a regular file but a FIFO`);
  });

  it("as a skill's SKILL.md or one of its files: left out, the rest served", async () => {
    const skills = join(base, "fs-skills");
    await mkdir(join(skills, "piped"), { recursive: true });
    fifo(join(skills, "piped/SKILL.md"));
    await mkdir(join(skills, "plain/references"), { recursive: true });
    await writeFile(join(skills, "plain/SKILL.md"), skillMd("plain"));
    fifo(join(skills, "plain/references/pipe.md"));
    const listed = await run(["list", "--skills-dir", skills, "--format", "json"]);
    expect(listed.signal).toBeNull();
    expect(listed.stdout).toContain('"plain"');
    expect(listed.stdout).not.toContain('"piped"');
    const read = await run(["read", "plain", "--skills-dir", skills]);
    expect(read.signal).toBeNull();
    expect(read.code, read.stderr).toBe(0);
  });
});
