import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";

/**
 * docs/plugins.md's package, built from the page's own files in a fresh folder, installed as the
 * page says: this checkout packed (`npm pack`) beside it, then `npm install` there (from npm's
 * cache, or the registry; skipped, saying why, when neither has a dependency). Then its
 * `npm run build` and `npm test` run: both must pass, and quietly (no "Sourcemap … points to
 * missing source files" from the bundle's maps).
 */
const DEV_DEPENDENCIES = ["@modelcontextprotocol/client", "@types/node", "typescript", "vitest"];
const { version } = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

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
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false" },
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
    // The tarball `npm pack` writes in a checkout, beside the plugin's folder: nothing unpublished from the registry.
    expect(manifest.devDependencies["skills-kernel"]).toBe(`file:../skills-kernel-${version}.tgz`);
    // Pinned as this repository pins them, so the page never offers a version nobody tested.
    const ours = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as Record<
      string,
      Record<string, string>
    >;
    for (const name of DEV_DEPENDENCIES)
      expect(manifest.devDependencies[name], name).toBe(ours.devDependencies![name] ?? ours.dependencies![name]);
  });

  it("installs with the packed checkout, builds and passes its tests with nothing but its own output", async (context) => {
    // The page's `npm pack`; dist/ is what `npm test` built, so --ignore-scripts packs it as is.
    const packed = await npm(["pack", "--ignore-scripts", "--pack-destination", dir], REPO_ROOT);
    expect(packed.code, packed.output).toBe(0);
    expect(existsSync(join(dir, `skills-kernel-${version}.tgz`)), packed.output).toBe(true);
    const plugin = join(dir, "skills-kernel-plugin-hello");
    for (const [file, text] of Object.entries(await recipeFiles())) {
      await mkdir(dirname(join(plugin, file)), { recursive: true });
      await writeFile(join(plugin, file), text);
    }
    const install = await npm(["install", "--prefer-offline"], plugin);
    if (install.code !== 0) {
      if (!/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|ENOTCACHED/.test(install.output))
        throw new Error(`npm install failed:\n${install.output}`);
      context.skip(
        `the npm registry is unreachable and npm's cache lacks a dependency: ${install.output.trim().split("\n")[0]}`,
      );
    }

    const build = await npm(["run", "build"], plugin);
    expect(build.code, build.output).toBe(0);
    expect(build.output).not.toMatch(/error TS\d+/);

    const test = await npm(["test"], plugin);
    expect(test.code, test.output).toBe(0);
    expect(test.output).toMatch(/1 passed/);
    expect(test.output).not.toMatch(/Sourcemap/i);
  }, 600_000);
});
