import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";

/** defineToken("test:greeting") as the object it makes, for a config that cannot import skills-kernel. */
const GREETING = `{ key: Symbol.for("skills-kernel:test:greeting"), name: "test:greeting", scope: "kernel", wholeCatalog: false }`;

/**
 * Error messages the docs quote, each produced by dist/cli.js as a user would meet it and compared
 * with the doc's line: `…` stands for any text, `/abs/project` for the folder the command ran in,
 * and `/abs/` elsewhere, in the message and in the arguments, for that folder too.
 * A case names its doc and line text, so changing either the message or the doc without the
 * other fails here.
 */
interface Case {
  readonly doc: string;
  /** The message as the doc quotes it. */
  readonly quoted: string;
  readonly argv: readonly string[];
  /** Files written into the project folder first. */
  readonly files?: Readonly<Record<string, string>>;
  /** Environment variables besides HOME and XDG_CACHE_HOME (both the project folder). */
  readonly env?: Readonly<Record<string, string>>;
}

const SKILL = (name: string) => `---\nname: ${name}\ndescription: A skill.\n---\n# ${name}\n`;
/** A .mjs config with inline plugins (a config that runs code), then list-skills. */
const inline = (plugins: string, top = "") => `export default { ${top}plugins: [${plugins}, "list-skills"] };\n`;

const CASES: readonly Case[] = [
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: unknown command "frobnicate"; commands: serve, list, search, read, validate, audit, doctor, sign, verify, cache-stats, export, …`,
    argv: ["frobnicate"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: Option '--to <value>' argument missing; see --help`,
    argv: ["install", "pdf", "--to"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: Option '--config <value>' argument missing; see --help`,
    argv: ["--config"],
  },
  { doc: "docs/configuration.md", quoted: `skills-kernel: read needs NAME; see --help`, argv: ["read"] },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugins.config.yaml: plugin "serach-skills" is not a built-in; did you mean "search-skills"?`,
    // Found by searching: a typo is a typo wherever the config came from.
    argv: ["list"],
    files: { "plugins.config.yaml": "plugins: [serach-skills]\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted:
      `skills-kernel: plugins.config.yaml: plugin "skills-kernel-plugin-x" is not a built-in, and no package of that name is installed (looked in node_modules in /abs/project and every folder above it): ` +
      `run npm install skills-kernel-plugin-x in /abs/project; a module path starts with "./"; built-ins: fs, git, …`,
    argv: ["list", "--config", "plugins.config.yaml"],
    files: { "plugins.config.yaml": "plugins: [skills-kernel-plugin-x]\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted:
      "skills-kernel: plugins.config.ts: cannot load: Cannot find module 'skills-kernel' (skills-kernel is not installed beside the config: install it there, npm install /path/to/skills-kernel-0.1.0.tgz (npm pack in a checkout makes it) or npm install /path/to/its/checkout, or drop the import and export a plain object: export default { plugins: [...] })",
    argv: ["list", "--config", "plugins.config.ts"],
    files: {
      "plugins.config.ts": `import { defineConfig } from "skills-kernel";\nexport default defineConfig({ plugins: ["list-skills"] });\n`,
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: `plugin "ranker-fuse": service "ranker" is already provided by plugin "ranker-bm25"`,
    argv: ["list", "--config", "plugins.config.yaml"],
    files: {
      "plugins.config.yaml": "plugins: [[fs, { roots: [./skills] }], ranker-bm25, ranker-fuse, list-skills]\n",
      "skills/.keep": "",
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: the list_skills tool is not enabled: add "list-skills" to plugins`,
    argv: ["list", "--config", "plugins.config.yaml"],
    files: { "plugins.config.yaml": "plugins: [[fs, { roots: [./skills] }]]\n", "skills/.keep": "" },
  },
  { doc: "docs/configuration.md", quoted: `skills-kernel: unexpected argument "b"; see --help`, argv: ["list", "b"] },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: --log-level must be one of silent, error, warn, info, debug, not "loud"`,
    argv: ["--log-level", "loud"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: --format must be one of names-only, json, full, not "xml"`,
    argv: ["list", "--format", "xml"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: --limit must be a whole number from 1 to 50, not "99"`,
    argv: ["search", "x", "--limit", "99"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: config file nope.config.ts not found`,
    argv: ["list", "--config", "nope.config.ts"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: config.toml: unsupported config file type ".toml" (expected .ts, .mts, .cts, .mjs, .js, .cjs, .json, .yaml, .yml)`,
    argv: ["list", "--config", "config.toml"],
    files: { "config.toml": "x = 1\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: package.json: no "skills-kernel" key`,
    argv: ["list", "--config", "package.json"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: c.json: plugin "list-skills" takes no options`,
    argv: ["list", "--config", "c.json"],
    files: { "c.json": JSON.stringify({ plugins: [["list-skills", { a: 1 }]] }) },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugin "fs": root /abs/no/such/dir does not exist`,
    argv: ["list", "--skills-dir", "/abs/no/such/dir"],
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugins.config.yaml: unknown transport "pigeon"; serve takes stdio (the default), http, or a transport a plugin of the config adds`,
    argv: ["--config", "plugins.config.yaml"],
    files: { "plugins.config.yaml": "transport: pigeon\nplugins: [list-skills]\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: plugins.config.json: is empty",
    argv: ["list", "--config", "plugins.config.json"],
    files: { "plugins.config.json": "" },
  },
  ...(
    [
      ["has no default export (export default defineConfig({ ... }))", "export const x = 1;\n"],
      ["the default export must be an object, got a function", "export default function () {}\n"],
      ['unknown key "plugin" (expected plugins, transport, logLevel, startup)', "export default { plugin: [] };\n"],
    ] as const
  ).map(([message, module]) => ({
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugins.config.mjs: ${message}`,
    argv: ["list", "--config", "plugins.config.mjs"],
    files: { "plugins.config.mjs": module },
  })),
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugins.config.ts: plugin "fs" is listed twice (plugins[0] and plugins[1][1])`,
    argv: ["list", "--config", "plugins.config.ts"],
    files: { "plugins.config.ts": `export default { plugins: ["fs", ["list-skills", "fs"]] };\n` },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: deps.config.mjs: plugin "needs-db" depends on "db", which is not in the config; add it to plugins`,
    argv: ["list", "--config", "deps.config.mjs"],
    files: {
      "deps.config.mjs": `export default { plugins: [{ name: "needs-db", dependsOn: ["db"], setup() {} }] };\n`,
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: plugins.config.ts: plugins depend on each other in a cycle: a -> b -> c -> a",
    argv: ["list", "--config", "plugins.config.ts"],
    files: {
      "plugins.config.ts": `const p = (name: string, on: string) => ({ name, dependsOn: [on], setup() {} });\nexport default { plugins: [p("a", "b"), p("b", "c"), p("c", "a")] };\n`,
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: unknown option --bogus; see skills-kernel serve --help",
    argv: ["--bogus"],
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: unknown option --fromat; did you mean --format?; see skills-kernel list --help",
    argv: ["list", "--fromat", "json"],
  },
  // --format belongs to list, not search.
  {
    doc: "docs/configuration.md",
    quoted:
      "skills-kernel: search takes no --format option (list, audit, doctor, usage take it); see skills-kernel search --help",
    argv: ["search", "x", "--format", "json"],
  },
  {
    doc: "docs/configuration.md",
    quoted:
      "skills-kernel: plugins.config.mjs was found by searching and is a JS/TS config, which runs code: to run it, name it with --config plugins.config.mjs, or pass --trust-config (or set SKILLS_KERNEL_TRUST_CONFIG=1)",
    argv: ["list"],
    files: { "plugins.config.mjs": `export default { plugins: ["list-skills"] };\n` },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: package.json was found by searching and names plugin module "skills-kernel-plugin-x", which runs code: to run it, …`,
    argv: ["list"],
    files: {
      "package.json": JSON.stringify({ "skills-kernel": { plugins: ["skills-kernel-plugin-x"] } }),
      // Installed: a package that is not is reported as missing, before any question of trust.
      "node_modules/skills-kernel-plugin-x/package.json": JSON.stringify({
        name: "skills-kernel-plugin-x",
        main: "index.js",
      }),
      "node_modules/skills-kernel-plugin-x/index.js": "",
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: .skills-kernelrc.yaml was found by searching and sets transport "http" (a transport other than stdio opens a listener): to run it, …`,
    argv: [],
    files: { ".skills-kernelrc.yaml": "transport: http\nplugins: [list-skills]\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: .skills-kernelrc.yaml was found by searching and lists plugin "http" (it opens an HTTP listener): to run it, …`,
    argv: ["list"],
    files: { ".skills-kernelrc.yaml": "plugins: [http, list-skills]\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: SKILLS_KERNEL_TRUST_CONFIG must be 1 or 0, not "yes"`,
    argv: ["list"],
    env: { SKILLS_KERNEL_TRUST_CONFIG: "yes" },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: plugins.config.json: invalid JSON at 3:1: …",
    argv: ["list", "--config", "plugins.config.json"],
    files: { "plugins.config.json": `{\n  "plugins": [],\n}\n` },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: .skills-kernelrc.yaml: invalid YAML at 2:10: …",
    argv: ["list", "--config", ".skills-kernelrc.yaml"],
    files: { ".skills-kernelrc.yaml": "plugins: [list-skills]\nstartup: }\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: plugins.config.ts: cannot load: syntax error at 2:11: …",
    argv: ["list", "--config", "plugins.config.ts"],
    files: { "plugins.config.ts": "export default {\n  plugins ]\n};\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: plugins.config.mjs: startup.setupTimeoutMs: expected a positive integer (milliseconds)",
    argv: ["list", "--config", "plugins.config.mjs"],
    files: { "plugins.config.mjs": "export default { startup: { setupTimeoutMs: -1 }, plugins: [] };\n" },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugins.config.mjs: startup.plugins["@acme/x"]: unknown key "timeout" (expected onPluginError, setupTimeoutMs)`,
    argv: ["list", "--config", "plugins.config.mjs"],
    files: {
      "plugins.config.mjs": `export default { startup: { plugins: { "@acme/x": { timeout: 1 } } }, plugins: [] };\n`,
    },
  },
  {
    doc: "docs/configuration.md",
    quoted:
      "skills-kernel: plugins.config.ts: cannot load plugin module ./missing.mjs: /abs/missing.mjs does not exist",
    argv: ["list", "--config", "plugins.config.ts"],
    files: { "plugins.config.ts": `export default { plugins: ["./missing.mjs"] };\n` },
  },
  {
    doc: "docs/configuration.md",
    quoted:
      "skills-kernel: plugins.config.ts: plugins[1][0]: expected a plugin name, [name, options], a plugin object or an array of them, got an object (options go with their plugin: [name, options])",
    argv: ["list", "--config", "plugins.config.ts"],
    files: { "plugins.config.ts": `export default { plugins: ["list-skills", [{ roots: ["./skills"] }]] };\n` },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: badopt.config.mjs: plugin "fs": option roots[0]: …`,
    argv: ["list", "--config", "badopt.config.mjs"],
    files: { "badopt.config.mjs": `export default { plugins: [["fs", { roots: [42] }]] };\n` },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: d.json: plugin "fs": option roots: Invalid input: expected array, received undefined`,
    argv: ["list", "--config", "d.json"],
    files: { "d.json": JSON.stringify({ plugins: [["fs", {}]] }) },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugin "broken": setup failed: no database (a bug in that plugin; run with --log-level debug for the stack)`,
    argv: ["list", "--config", "c.mjs"],
    files: { "c.mjs": inline(`{ name: "broken", setup() { throw new Error("no database"); } }`) },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugin "slow": setup timed out after 50 ms`,
    argv: ["list", "--config", "c.mjs"],
    files: {
      "c.mjs": inline(`{ name: "slow", setup: () => new Promise(() => {}) }`, "startup: { setupTimeoutMs: 50 }, "),
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: c.mjs: plugin "needy" needs service "test:greeting", which no plugin in this config provides; add a plugin that provides it`,
    argv: ["list", "--config", "c.mjs"],
    // defineToken("test:greeting"), written out: the config cannot import skills-kernel here.
    files: {
      "c.mjs": inline(`{ name: "needy", consumes: [${GREETING}], setup(ctx) { ctx.resolve(${GREETING}); } }`),
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: plugin "b": a tool named "same" is already registered`,
    argv: ["list", "--config", "c.mjs"],
    files: {
      "c.mjs": inline(
        ["a", "b"]
          .map(
            (name) =>
              `{ name: "${name}", setup(ctx) { ctx.addTool({ name: "same", description: "Same.", handler: () => ({ content: [] }) }); } }`,
          )
          .join(", "),
      ),
    },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: the search_skills tool is not enabled: add "search-skills" to plugins`,
    argv: ["search", "x", "--config", "plugins.config.yaml"],
    files: { "plugins.config.yaml": "plugins: [[fs, { roots: [./skills] }]]\n", "skills/.keep": "" },
  },
  {
    doc: "docs/configuration.md",
    quoted: `skills-kernel: read_skill: no skill named "commit-mesage-writer"; did you mean: commit-message-writer?`,
    argv: ["read", "commit-mesage-writer", "--skills-dir", "skills"],
    files: { "skills/commit-message-writer/SKILL.md": SKILL("commit-message-writer") },
  },
  {
    doc: "docs/configuration.md",
    quoted: "skills-kernel: /abs/skills/missing does not exist",
    argv: ["validate", "/abs/skills/missing"],
  },
  {
    doc: "docs/configuration.md",
    quoted:
      "skills-kernel: /abs/.claude/skills/pdf already exists; ask to overwrite it (overwrite: true, or --force) to replace it",
    argv: ["install", "pdf", "--to", "user", "--skills-dir", "skills"],
    files: { "skills/pdf/SKILL.md": SKILL("pdf"), ".claude/skills/pdf/SKILL.md": SKILL("pdf") },
  },
  {
    doc: "docs/tools.md",
    quoted: "skills-kernel: no skill source could be loaded, so nothing is listed; looked in <source> (<where>)",
    argv: ["list", "--git", "file:///nonexistent.git"],
  },
];

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "sk-doc-errors-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The doc's words as a pattern: `…` and `<placeholders>` match any text, /abs/project and /abs/ the project. */
function pattern(quoted: string, project: string): RegExp {
  const escaped = quoted
    .split(/(…|<[a-z]+>|\/abs\/project|\/abs\/)/)
    .map((part) => {
      if (part === "…" || /^<[a-z]+>$/.test(part)) return ".+";
      if (part === "/abs/project") return escape(project);
      return part === "/abs/" ? escape(`${project}/`) : escape(part);
    })
    .join("");
  return new RegExp(`^(?:skills-kernel: )?${escaped}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("error messages quoted in the docs", () => {
  it.each(CASES.map((c) => [c.quoted, c] as const))("%s", async (_quoted, c) => {
    const doc = (await readFile(join(REPO_ROOT, c.doc), "utf8")).replace(/\s*\n\s*/g, " ");
    expect(doc, `${c.doc} no longer quotes this message`).toContain(c.quoted);
    const project = await mkdtemp(join(base, "project-"));
    await writeFile(join(project, "package.json"), "{}");
    for (const [file, text] of Object.entries(c.files ?? {})) {
      await mkdir(join(project, file, ".."), { recursive: true });
      await writeFile(join(project, file), text);
    }
    const argv = c.argv.map((arg) => arg.replace(/^\/abs\//, `${project}/`));
    const result = await runCli(argv, {
      cwd: project,
      env: { HOME: project, XDG_CACHE_HOME: join(project, ".cache"), ...c.env },
    });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.split("\n").filter((line) => line.startsWith("skills-kernel: "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern(c.quoted, project));
  });
});
