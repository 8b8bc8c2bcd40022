import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, runCli } from "../helpers/cli.js";

// #14 item 3: "a failure at any point leaves the target as it was", kill -9 included. A real
// child runs the bundled CLI's install and is killed while it copies.

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-install-kill-"));
  await writeFile(join(work, "package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("install killed with SIGKILL mid-copy", () => {
  it("leaves the installed skill as it was, never serves the half copy, and the next install cleans up", async () => {
    const catalog = join(work, "catalog");
    const big = join(catalog, "big");
    await mkdir(join(big, "references", "nested"), { recursive: true });
    await writeFile(join(big, "SKILL.md"), skillMd("big"));
    // A skill nested in the copy: the half copy must not be served as one.
    await writeFile(join(big, "references", "nested", "SKILL.md"), skillMd("nested"));
    await Promise.all(
      Array.from({ length: 2_500 }, (_, i) => writeFile(join(big, `file-${i}.md`), `file ${i}\n`.repeat(20))),
    );
    const target = join(work, "target");
    await mkdir(join(target, "big"), { recursive: true });
    await writeFile(join(target, "big", "SKILL.md"), skillMd("big"));
    await writeFile(join(target, "big", "mine.md"), "my own notes");

    const [command, ...prefix] = RUNTIMES.node;
    const child = spawn(command, [...prefix, "install", "big", "--to", target, "--force", "--skills-dir", catalog], {
      cwd: work,
      stdio: "ignore",
    });
    let exited = false;
    const closed = new Promise((resolve) => child.on("close", () => resolve((exited = true))));
    let staging = "";
    await waitFor(async () => {
      if (exited) throw new Error("the install finished before it could be killed");
      staging = (await readdir(target)).find((entry) => entry.startsWith(".installing-")) ?? "";
      return staging !== "" && (await readdir(join(target, staging)).catch(() => [])).length > 100;
    }, "the copy to be under way");
    child.kill("SIGKILL");
    await closed;

    // The installed copy is untouched; only the hidden half copy is left, and nothing serves it.
    expect(await readdir(join(target, "big"))).toEqual(expect.arrayContaining(["SKILL.md", "mine.md"]));
    expect(await readFile(join(target, "big", "mine.md"), "utf8")).toBe("my own notes");
    expect((await readdir(target)).sort()).toEqual([staging, "big"].sort());
    const listed = await runCli(["list", "--format", "json", "--skills-dir", target], { cwd: work });
    expect(JSON.parse(listed.stdout).skills.map((skill: { id: string }) => skill.id)).toEqual(["big"]);

    const again = await runCli(["install", "big", "--to", target, "--force", "--skills-dir", catalog, "--json"], {
      cwd: work,
      timeoutMs: 60_000,
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).warnings).toContain(`removed ${staging}, left by an interrupted install`);
    expect(await readdir(target)).toEqual(["big"]);
    expect(await readdir(join(target, "big"))).not.toContain("mine.md");
  });
});
