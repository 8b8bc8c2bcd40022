import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT } from "../helpers/cli.js";
import { HAS_SCRIPT, needsScript } from "../helpers/tools.js";

let work: string;
let skills: string;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "sk-banner-")));
  await writeFile(join(work, "package.json"), "{}");
  skills = join(work, "skills");
  await mkdir(join(skills, "alpha"), { recursive: true });
  await writeFile(join(skills, "alpha", "SKILL.md"), "---\nname: alpha\ndescription: First skill.\n---\n# alpha\n");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The banner a person sees when starting `script` in a terminal (script(1) gives it one). */
async function bannerOf(script: string): Promise<string> {
  const line = [process.execPath, script, "--skills-dir", skills].map((w) => `'${w}'`).join(" ");
  const child = spawn("script", ["-qec", line, "/dev/null"], { cwd: work, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (c) => (output += c));
  try {
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no banner; got: ${output}`)), 15_000);
      const check = () => (output.includes("Ctrl-C") ? (clearTimeout(deadline), resolve()) : setTimeout(check, 20));
      check();
    });
  } finally {
    child.kill("SIGTERM");
  }
  return output.replace(/\r/g, "");
}

describe.skipIf(!HAS_SCRIPT)(needsScript("the banner's connect command still works after npx's cache is gone"), () => {
  it("names the checkout's own bin when npx ran the checkout through a link in its cache", async () => {
    // What `npx skills-kernel` does in a checkout: ~/.npm/_npx/<hash>/node_modules/skills-kernel -> checkout.
    const cached = join(work, ".npm/_npx/0123abcd/node_modules");
    await mkdir(cached, { recursive: true });
    await symlink(REPO_ROOT, join(cached, "skills-kernel"), "dir");
    const banner = await bannerOf(join(cached, "skills-kernel/dist/cli.js"));
    expect(banner).toContain(`claude mcp add skills -- ${process.execPath} ${CLI} --skills-dir ${skills}`);
    expect(banner).not.toContain("_npx");
  });

  it("says npx -y skills-kernel when the package itself lives in npx's cache", async () => {
    const installed = join(work, ".npm/_npx/4567cdef/node_modules/skills-kernel");
    await cp(join(REPO_ROOT, "dist"), join(installed, "dist"), { recursive: true });
    await writeFile(join(installed, "package.json"), JSON.stringify({ name: "skills-kernel", type: "module" }));
    const banner = await bannerOf(join(installed, "dist/cli.js"));
    expect(banner).toContain(`claude mcp add skills -- npx -y skills-kernel --skills-dir ${skills}`);
    expect(banner).toContain(
      `"mcpServers": {"skills":{"command":"npx","args":["-y","skills-kernel","--skills-dir","${skills}"]}}`,
    );
  });
});
