import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT } from "../helpers/cli.js";
import { BUN, DENO } from "../helpers/runtimes.js";
import { docCommands, docFiles, type DocCommand } from "../helpers/doc-commands.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { TestRedis } from "../helpers/redis.js";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { git, skill } from "../plugins/sources/git/repos.js";
import { spawn } from "node:child_process";

/**
 * Every command README.md, docs/getting-started.md and docs/clients.md show is run here against the checkout, as
 * the reader would run it, so the guide cannot drift from what the CLI does. Placeholders get
 * fixed stand-ins: `/abs/skills-kernel` is this checkout, `/abs/my-skills` a folder of skills,
 * github.com a local bare repository (through git's url.insteadOf), example.com and Redis local
 * servers. A server command must answer list_skills with skills over stdio; any other must exit 0
 * (and create the path its comment names).
 */
const DOCS = ["README.md", "docs/getting-started.md", "docs/clients.md"];

/** Commands that are not run, and why; each must still be in a doc, so this list cannot rot. */
const NOT_RUN: Record<string, string> = {
  "git clone <this repository> /abs/skills-kernel": "the checkout under test is the clone",
  "npm ci": "the suite runs in the installed checkout",
  "npm test": "this is the suite npm test runs",
  "npm pack": "test/e2e/npm-package.test.ts packs the package",
  "npm install -g ./skills-kernel-0.1.0.tgz --omit=dev":
    "test/e2e/npm-package.test.ts installs the tarball into an empty prefix",
  'claude mcp add --transport http skills-team https://skills.example.com/mcp --header "Authorization: Bearer $SKILLS_TOKEN"':
    "a remote server; test/e2e/npm-package.test.ts runs claude mcp add on the installed bin",
};

const BIN = join(REPO_ROOT, "node_modules", ".bin");
const SUBCOMMANDS = new Set([
  ...["list", "search", "read", "validate", "audit", "sign", "verify", "install", "cache-stats", "tools", "call"],
  ...["add", "installed", "outdated", "update", "remove", "restore"],
]);
/** Commands about installed skills: run in a project where the README's own `add` has run first. */
const AFTER_ADD = new Set(["installed", "outdated", "update", "remove", "restore"]);

let base: string;
let catalog: FixtureServer;
let redis: TestRedis;
let gitConfig: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-doc-commands-"));
  // github.com/anthropics/skills, as git fetches it: a local bare repository holding skills/pdf.
  const repos = join(base, "github");
  const bare = join(repos, "anthropics", "skills.git");
  const work = join(base, "anthropics-work");
  await mkdir(join(work, "skills", "pdf"), { recursive: true });
  await writeFile(join(work, "skills", "pdf", "SKILL.md"), skill("pdf", "Fill in PDF forms and extract their text."));
  await mkdir(bare, { recursive: true });
  git(bare, "init", "-q", "--bare");
  git(work, "init", "-q");
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "pdf");
  git(work, "push", "-q", bare, "HEAD:refs/heads/main");
  gitConfig = join(base, "gitconfig");
  await writeFile(gitConfig, `[url "${pathToFileURL(repos).href}/"]\n\tinsteadOf = https://github.com/\n`);
  catalog = await startFixtureServer({
    "/.well-known/skills/index.json": {
      body: JSON.stringify({ skills: [{ name: "deploy", description: "Deploy the site.", files: ["SKILL.md"] }] }),
    },
    "/.well-known/skills/deploy/SKILL.md": { body: skill("deploy", "Deploy the site.") },
  });
  redis = await TestRedis.start();
});
afterAll(async () => {
  await catalog?.close();
  await redis?.kill();
  await rm(base, { recursive: true, force: true });
});

/** A fresh reader's machine: a project folder, a home folder, each holding the demo skills and a pdf skill. */
async function sandbox(): Promise<{ project: string; home: string; workspace: string }> {
  const root = await mkdtemp(join(base, "reader-"));
  const project = join(root, "project");
  const home = join(root, "home");
  const workspace = join(root, "workspace");
  const skillsFolder = async (folder: string) => {
    await cp(join(REPO_ROOT, "examples", "skills"), folder, { recursive: true });
    await mkdir(join(folder, "pdf"), { recursive: true });
    await writeFile(join(folder, "pdf", "SKILL.md"), skill("pdf", "Fill in a PDF form, or read one."));
  };
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "package.json"), "{}");
  await skillsFolder(join(project, "my-skills"));
  await skillsFolder(join(project, "skills"));
  await skillsFolder(join(home, ".agents", "skills"));
  await skillsFolder(join(workspace, ".claude", "skills"));
  // The archive the README's --skills-archive names.
  await writeFile(
    join(project, "team.tar.gz"),
    await packTarGz([{ path: "pdf/SKILL.md", bytes: new TextEncoder().encode(skill("pdf", "Fill in a PDF form.")) }]),
  );
  // The key the README's `sign` names.
  await mkdir(join(home, ".ssh"), { recursive: true });
  await run(
    ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "reader@example.com", "-f", join(home, ".ssh", "id_ed25519")],
    root,
    {},
  );
  return { project, home, workspace };
}

/** The placeholders' stand-ins, applied to each word. */
function substitute(word: string, places: { project: string; workspace: string; home: string }): string {
  if (word === "dist/cli.js") return CLI;
  // What the reader's shell does with a leading ~.
  if (word.startsWith("~/")) return join(places.home, word.slice(2));
  return (
    word
      .replaceAll("/abs/skills-kernel", REPO_ROOT.replace(/\/$/, ""))
      .replaceAll("/abs/my-skills", join(places.project, "my-skills"))
      .replaceAll("/abs/path", join(places.project, "my-skills"))
      // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's variable, as the docs write it
      .replaceAll("${workspaceFolder}", places.workspace)
      .replaceAll("https://example.com", catalog.url)
      .replaceAll("redis://127.0.0.1:6379", redis.url)
  );
}

/** The server's own command: what `claude mcp add NAME --` or the Inspector's `--` would start. */
function serverPart(words: readonly string[]): readonly string[] {
  const wrapped =
    (words[0] === "claude" && words[1] === "mcp" && words[2] === "add") ||
    words[1] === "@modelcontextprotocol/inspector";
  return wrapped ? words.slice(words.indexOf("--") + 1) : words;
}

/** The executable for a doc's program name: this checkout's CLI, Bun and Deno from its devDependencies. */
function executable(words: readonly string[]): string[] {
  const [program, ...rest] = words;
  switch (program) {
    case "skills-kernel":
      return [process.execPath, CLI, ...rest];
    case "node":
      return [process.execPath, ...rest];
    case "bun":
      return [BUN, ...rest];
    case "deno":
      return [DENO, "run", "-A", "--quiet", ...rest.slice(2)];
    case "npx":
      return ["npx", ...rest];
    default:
      throw new Error(`no way to run "${program}"`);
  }
}

function isServer(words: readonly string[]): boolean {
  return !words.some((word) => SUBCOMMANDS.has(word));
}

function envFor(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    GIT_CONFIG_GLOBAL: gitConfig,
    PATH: `${BIN}:${env.PATH ?? ""}`,
    // npx must not reach for the registry: the guide runs it where skills-kernel is installed.
    npm_config_offline: "true",
  };
}

function run(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function serveAndList(argv: readonly string[], cwd: string, env: Record<string, string>): Promise<number> {
  const transport = new StdioClientTransport({ command: argv[0]!, args: argv.slice(1), cwd, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "doc-commands", version: "0" });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: "list_skills", arguments: {} });
    expect(result.isError, stderr).toBeFalsy();
    return (result.structuredContent as { total: number }).total;
  } catch (error) {
    throw new Error(`${(error as Error).message}\nstderr: ${stderr}`);
  } finally {
    await client.close();
  }
}

const commands: DocCommand[] = DOCS.flatMap((doc) => docCommands(REPO_ROOT, doc));
const files = DOCS.flatMap((doc) => docFiles(REPO_ROOT, doc));

describe("the commands of README.md and the guides, run as written", () => {
  it("finds the guide's commands, and every one it does not run is still in a doc", () => {
    expect(commands.filter((c) => c.doc === "docs/getting-started.md").length).toBeGreaterThan(10);
    const shown = new Set(commands.map((c) => c.text));
    for (const skipped of Object.keys(NOT_RUN)) expect(shown, skipped).toContain(skipped);
  });

  it("plain `npx skills-kernel` in the checkout exits 2 naming --config plugins.config.ts, as the guide says", async () => {
    const guide = await readFile(join(REPO_ROOT, "docs/getting-started.md"), "utf8");
    expect(guide).toContain(
      "Plain `npx skills-kernel` here would find the checkout's own `plugins.config.ts` and refuse it\n(exit 2)",
    );
    const result = await run(["npx", "skills-kernel"], REPO_ROOT, envFor(base));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "plugins.config.ts was found by searching and is a JS/TS config, which runs code: to run it, name it with --config plugins.config.ts",
    );
  });

  it.each(commands.filter((c) => !(c.text in NOT_RUN)).map((c) => [`${c.doc}:${c.line} ${c.text}`, c] as const))(
    "%s",
    async (_title, command) => {
      if (command.words[0] === "cd") return; // followed by the commands after it (inCheckout)
      const places = await sandbox();
      const words = serverPart(command.words).map((word) => substitute(word, places));
      for (const file of files)
        if (words.some((word) => word.endsWith(file.name))) await writeFile(join(places.project, file.name), file.text);
      // A config that imports "skills-kernel" finds it where a reader would have installed it.
      await mkdir(join(places.project, "node_modules"), { recursive: true });
      await symlink(REPO_ROOT, join(places.project, "node_modules", "skills-kernel"));
      const cwd = command.inCheckout || words[0] === "npx" ? REPO_ROOT : places.project;
      const env = envFor(places.home);
      const argv = executable(words);
      if (isServer(words)) {
        expect(await serveAndList(argv, cwd, env)).toBeGreaterThan(0);
        return;
      }
      if (words[0] === "skills-kernel" && AFTER_ADD.has(words[1]!)) {
        const added = await run(
          executable(["skills-kernel", "add", "anthropics/skills@pdf", "--agent", "cursor"]),
          cwd,
          env,
        );
        expect(added.code, added.stderr).toBe(0);
      }
      const result = await run(argv, cwd, env);
      expect(result.code, `${result.stderr}${result.stdout}`).toBe(0);
      expect(result.stdout).not.toBe("");
      if (command.creates) {
        const created = command.creates.startsWith("~/")
          ? join(places.home, command.creates.slice(2))
          : join(cwd, command.creates);
        expect(existsSync(created), created).toBe(true);
      }
    },
    120_000,
  );
});
