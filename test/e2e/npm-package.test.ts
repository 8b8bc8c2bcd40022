import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";
import { BUN, CLAUDE, DENO, NODE_22, NODE_24 } from "../helpers/runtimes.js";

/**
 * The package as a user gets it: `npm pack`, then `npm install -g` of the tarball into an empty
 * prefix with --omit=dev, its dependencies from the npm registry (npm's cache first, so a warm
 * machine does not download them again). One install serves every test in this file. With no
 * registry and a cold cache the install cannot happen: the tests are skipped, saying why.
 */
const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};
const MB = 1024 * 1024;

let work: string;
let prefix: string;
let installed: string;
let packed: { filename: string; size: number; files: { path: string }[] };
let unavailable: string | undefined;

function npm(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): SpawnSyncReturns<string> {
  return spawnSync("npm", args, {
    cwd: options.cwd ?? REPO_ROOT,
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, ...options.env },
  });
}

/** PATH with this Node's folder first: the installed bin starts with `#!/usr/bin/env node`. */
const pathWith = (node: string) => [dirname(node), process.env.PATH].join(delimiter);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "skills-kernel-package-"));
  prefix = join(work, "prefix");
  installed = join(prefix, "lib/node_modules/skills-kernel");
  // dist/ is what `npm test` built; --ignore-scripts packs it as is.
  const pack = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work]);
  expect(pack.status, pack.stderr).toBe(0);
  [packed] = JSON.parse(pack.stdout);
  // The embedding example's one import beyond skills-kernel, a documented optional peer.
  const client = `@modelcontextprotocol/client@${pkg.devDependencies["@modelcontextprotocol/client"]}`;
  const install = npm(
    [
      "install",
      "-g",
      "--prefix",
      prefix,
      join(work, packed.filename),
      client,
      "--omit=dev",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
    ],
    { cwd: work },
  );
  if (install.status !== 0) {
    if (!/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|ENOTCACHED/.test(install.stderr))
      throw new Error(`npm install failed:\n${install.stderr}`);
    unavailable = `the npm registry is unreachable and npm's cache lacks a dependency: ${install.stderr.trim().split("\n")[0]}`;
    console.warn(`skipped: ${unavailable}`);
  }
}, 600_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function needsInstall(context: TestContext) {
  if (unavailable) context.skip(unavailable);
}

async function folderSize(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

describe("the npm package", () => {
  it("packs at most 4 MB: the bundle, its declarations, the icons and the manifest; no tests, benchmarks or sources", () => {
    expect(packed.size).toBeLessThanOrEqual(4 * MB);
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "dist/cli.js",
        "dist/index.js",
        "dist/types/index.d.ts",
        "assets/icon.svg",
        "assets/icon.png",
      ]),
    );
    expect(paths.filter((path) => !/^(dist\/|assets\/icon|package\.json$|README\.md$|LICENSE$)/.test(path))).toEqual(
      [],
    );
  });

  it("installs into an empty prefix in at most 80 MB, without test, bench or src, nor a development tool", async (context) => {
    needsInstall(context);
    expect(await folderSize(installed)).toBeLessThanOrEqual(80 * MB);
    const top = await readdir(installed);
    expect(top.filter((entry) => ["test", "bench", "src", "scripts", "examples"].includes(entry))).toEqual([]);
    const dependencies = await readdir(join(installed, "node_modules"));
    expect(
      dependencies.filter((name) =>
        ["typescript", "vitest", "esbuild", "tsx", "@biomejs", "@anthropic-ai", "vite"].includes(name),
      ),
    ).toEqual([]);
  });

  // How a user runs it on each runtime: the bin on PATH (Node), or the bundle the bin points to.
  const RUNS = {
    "Node 20": () => ({ command: join(prefix, "bin/skills-kernel"), args: [], path: pathWith(process.execPath) }),
    "Node 22": () => ({ command: join(prefix, "bin/skills-kernel"), args: [], path: pathWith(NODE_22) }),
    "Node 24": () => ({ command: join(prefix, "bin/skills-kernel"), args: [], path: pathWith(NODE_24) }),
    Bun: () => ({ command: BUN, args: [join(prefix, "bin/skills-kernel")], path: process.env.PATH ?? "" }),
    Deno: () => ({
      command: DENO,
      args: ["run", "-A", "--quiet", join(installed, "dist/cli.js")],
      path: process.env.PATH ?? "",
    }),
  };

  describe.each(Object.keys(RUNS) as (keyof typeof RUNS)[])("installed, on %s", (runtime) => {
    it("prints its version, and serves skills over stdio to the official MCP client", async (context) => {
      needsInstall(context);
      const { command, args, path } = RUNS[runtime]();
      const version = spawnSync(command, [...args, "--version"], {
        cwd: work,
        encoding: "utf8",
        env: { ...process.env, PATH: path },
        timeout: 60_000,
      });
      expect(version.stdout).toBe(`${pkg.version}\n`);
      const transport = new StdioClientTransport({
        command,
        args: [...args, "--skills-dir", join(REPO_ROOT, "examples/skills")],
        cwd: work,
        env: { PATH: path, HOME: work },
        stderr: "pipe",
      });
      const client = new Client({ name: "package-e2e", version: "0" });
      try {
        await client.connect(transport);
        expect(client.getServerVersion()).toMatchObject({ name: "skills-kernel", version: pkg.version });
        const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes" } });
        expect(found.structuredContent).toMatchObject({
          results: expect.arrayContaining([expect.objectContaining({ id: "changelog-curator" })]),
        });
      } finally {
        await client.close();
      }
    });
  });

  it("runs as npx skills-kernel from any folder once installed", async (context) => {
    needsInstall(context);
    const elsewhere = join(work, "elsewhere");
    await mkdir(elsewhere);
    const run = spawnSync("npx", ["--offline", "skills-kernel", "--version"], {
      cwd: elsewhere,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, npm_config_prefix: prefix },
    });
    expect(run.stdout, run.stderr).toBe(`${pkg.version}\n`);
  });

  it("embeds: examples/embed.mjs runs beside the installed package and its optional peer", async (context) => {
    needsInstall(context);
    // A module in <prefix>/lib resolves bare imports from <prefix>/lib/node_modules, as in a project.
    const lib = join(prefix, "lib");
    await cp(join(REPO_ROOT, "examples/embed.mjs"), join(lib, "embed.mjs"));
    await cp(join(REPO_ROOT, "examples/skills"), join(lib, "skills"), { recursive: true });
    const run = spawnSync(process.execPath, [join(lib, "embed.mjs"), "release notes"], {
      cwd: work,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^changelog-curator \(\w+\): \d+ file\(s\) to fetch\n$/);
  });

  it("connects to Claude Code: claude mcp add, then claude mcp list reports it Connected", async (context) => {
    needsInstall(context);
    const home = join(work, "claude-home");
    const project = join(work, "claude-project");
    await mkdir(home);
    await mkdir(project);
    // A scratch HOME, telemetry and every nonessential request off: nothing leaves the machine.
    const env = {
      ...process.env,
      HOME: home,
      PATH: pathWith(process.execPath),
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    };
    const claude = (...args: string[]) =>
      spawnSync(CLAUDE, args, { cwd: project, encoding: "utf8", env, timeout: 120_000 });
    const added = claude(
      "mcp",
      "add",
      "skills",
      "--",
      join(prefix, "bin/skills-kernel"),
      "--skills-dir",
      join(REPO_ROOT, "examples/skills"),
    );
    expect(added.status, added.stderr).toBe(0);
    const listed = claude("mcp", "list");
    expect(listed.stdout).toMatch(/^skills: .*skills-kernel --skills-dir .* - ✔ Connected$/m);
  });
});
