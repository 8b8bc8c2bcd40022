import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";

// #14 item 5: `skills-kernel list --format json | head` crashed with a stack trace.

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-pipes-"));
  await writeFile(join(work, "package.json"), "{}");
  // Far more output than a pipe holds (64 KiB on Linux).
  for (let i = 0; i < 400; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    await mkdir(join(work, "skills", name), { recursive: true });
    await writeFile(
      join(work, "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${"A long description. ".repeat(20)}\n---\n`,
    );
  }
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.each(Object.keys(RUNTIMES) as Runtime[])("a reader that goes away (EPIPE), on %s", (runtime) => {
  it("ends `list --format json | head` quietly", async () => {
    // A real shell pipeline: head reads 10 bytes and exits, and the CLI's exit status is kept.
    const cli = [...RUNTIMES[runtime], "list", "--format", "json", "--skills-dir", join(work, "skills")]
      .map((arg) => `'${arg}'`)
      .join(" ");
    const result = spawnSync("bash", ["-c", `${cli} | head -c 10; exit "\${PIPESTATUS[0]}"`], {
      cwd: work,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 0,
      stdout: '{"total":400'.slice(0, 10),
      stderr: "",
    });
  });
});
