import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

/**
 * docs/plugins.md's package, built from the page's own files in a fresh folder against this
 * checkout installed as `npm install /abs/skills-kernel` installs it (a link), then its
 * `npm run build` and `npm test` run: both must pass, and quietly (no "Sourcemap … points to
 * missing source files" from the bundle's maps). npm's registry is not used: the dev dependencies
 * are this checkout's own.
 */
const DEV_DEPENDENCIES = ["@modelcontextprotocol/client", "@types/node", "typescript", "vitest"];

let dir: string;

/** The page's files: a fenced block right after a line that is just `` `path`: ``. */
async function recipeFiles(): Promise<Record<string, string>> {
  const page = await readFile(join(REPO_ROOT, "docs/plugins.md"), "utf8");
  const files: Record<string, string> = {};
  for (const match of page.matchAll(/^`([\w./-]+)`:\n\n```\w*\n([\s\S]*?)^```/gm)) files[match[1]!] = match[2]!;
  return files;
}

function npm(args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", [...args], {
      cwd,
      env: { ...process.env, npm_config_offline: "true", npm_config_update_notifier: "false" },
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sk-plugin-recipe-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("docs/plugins.md's package, made from the page", () => {
  it("has the four files, and declares every dev dependency its files need", async () => {
    const files = await recipeFiles();
    expect(Object.keys(files).sort()).toEqual(["package.json", "src/index.ts", "test/hello.test.ts", "tsconfig.json"]);
    const manifest = JSON.parse(files["package.json"]!) as { devDependencies: Record<string, string> };
    expect(Object.keys(manifest.devDependencies).sort()).toEqual(["skills-kernel", ...DEV_DEPENDENCIES].sort());
    // Pinned as this repository pins them, so the page never offers a version nobody tested.
    const ours = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as Record<
      string,
      Record<string, string>
    >;
    for (const name of DEV_DEPENDENCIES)
      expect(manifest.devDependencies[name], name).toBe(ours.devDependencies![name] ?? ours.dependencies![name]);
  });

  it("builds and passes its tests with nothing but its own output", async () => {
    for (const [file, text] of Object.entries(await recipeFiles())) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    // What `npm install /abs/skills-kernel` and the dev dependencies would leave in node_modules.
    const modules = join(dir, "node_modules");
    await mkdir(join(modules, "@modelcontextprotocol"), { recursive: true });
    await mkdir(join(modules, "@types"), { recursive: true });
    await mkdir(join(modules, ".bin"), { recursive: true });
    await symlink(REPO_ROOT, join(modules, "skills-kernel"), "dir");
    for (const name of DEV_DEPENDENCIES)
      await symlink(join(REPO_ROOT, "node_modules", name), join(modules, name), "dir");
    for (const bin of ["tsc", "vitest"])
      await symlink(join(REPO_ROOT, "node_modules", ".bin", bin), join(modules, ".bin", bin));

    const build = await npm(["run", "build"], dir);
    expect(build.code, build.output).toBe(0);
    expect(build.output).not.toMatch(/error TS\d+/);

    const test = await npm(["test"], dir);
    expect(test.code, test.output).toBe(0);
    expect(test.output).toMatch(/1 passed/);
    expect(test.output).not.toMatch(/Sourcemap/i);
  }, 180_000);
});
