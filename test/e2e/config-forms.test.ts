import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";

/**
 * Every config form docs/configuration.md lists, loaded by the shipped bundle on every runtime:
 * the unit tests load the sources, which once hid a bundle that could not read YAML at all.
 */
const PLUGINS = [["fs", { roots: ["./skills"] }], "list-skills"];
const JSON_CONFIG = JSON.stringify({ plugins: PLUGINS });
const YAML_CONFIG = "# a comment\nplugins:\n  - [fs, { roots: [./skills] }]\n  - list-skills\n";
const TS_CONFIG = `const plugins: unknown[] = ${JSON.stringify(PLUGINS)};\nexport default { plugins };\n`;
const ESM_CONFIG = `export default ${JSON_CONFIG};\n`;

/** [file, content, runs code]: a found config that runs code needs --trust-config. */
const FORMS: [string, string, boolean][] = [
  ["plugins.config.ts", TS_CONFIG, true],
  ["plugins.config.mts", TS_CONFIG, true],
  ["plugins.config.mjs", ESM_CONFIG, true],
  ["plugins.config.js", ESM_CONFIG, true],
  ["plugins.config.cjs", `module.exports = ${JSON_CONFIG};\n`, true],
  ["plugins.config.json", JSON_CONFIG, false],
  ["plugins.config.yaml", YAML_CONFIG, false],
  ["plugins.config.yml", YAML_CONFIG, false],
  [".skills-kernelrc", JSON_CONFIG, false],
  [".skills-kernelrc", YAML_CONFIG, false],
  [".skills-kernelrc.json", JSON_CONFIG, false],
  [".skills-kernelrc.yaml", YAML_CONFIG, false],
  [".skills-kernelrc.yml", YAML_CONFIG, false],
  ["skills-kernel.config.ts", TS_CONFIG, true],
  ["skills-kernel.config.mjs", ESM_CONFIG, true],
  ["skills-kernel.config.js", ESM_CONFIG, true],
];

/** Indexes in FORMS of one file per reader: .ts, .mjs, .cjs, .json, .yaml, .skills-kernelrc. */
const NAMED_KINDS = new Set([0, 2, 4, 5, 6, 9]);

let work: string;
let count = 0;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "sk-forms-")));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A project folder with one skill and the given files; package.json makes it a project root. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = join(work, String(count++));
  const all = { "package.json": JSON.stringify({ name: "p", private: true, type: "module" }), ...files };
  for (const [file, content] of Object.entries({
    ...all,
    "skills/alpha/SKILL.md": "---\nname: alpha\ndescription: A skill.\n---\n# alpha\n",
  })) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), content);
  }
  return dir;
}

/** Runs `list` for each case, a few at a time (two cores, shared), and returns what each printed. */
async function listAll(runtime: Runtime, cases: { cwd: string; args: string[] }[]) {
  const results: { code: number | null; stdout: string; stderr: string }[] = [];
  for (let i = 0; i < cases.length; i += 4) {
    const batch = cases.slice(i, i + 4);
    results.push(
      ...(await Promise.all(
        batch.map(({ cwd, args }) => runCli(["list", ...args], { cwd, runtime, timeoutMs: 30_000 })),
      )),
    );
  }
  return results;
}

// Each runtime starts about 20 processes one after another: on a busy two-core machine that is
// minutes, not the default minute.
describe.each(Object.keys(RUNTIMES) as Runtime[])(
  "every config form through dist/cli.js on %s",
  { timeout: 240_000 },
  (runtime) => {
    // Named and found configs share their readers: naming a file of each reader (TypeScript, ES
    // module, CommonJS, JSON, YAML, no extension, package.json) is checked on one runtime.
    const named = runtime === "node";
    it(`finds each form by searching${named ? ", and loads one of each kind named with --config" : ""}`, async () => {
      const cases: { label: string; cwd: string; args: string[] }[] = [];
      for (const [index, [file, content, runsCode]] of FORMS.entries()) {
        const dir = await project({ [file]: content });
        cases.push({ label: `${file} found`, cwd: dir, args: runsCode ? ["--trust-config"] : [] });
        // Named from another folder: relative paths in it still resolve from its own folder.
        if (named && NAMED_KINDS.has(index))
          cases.push({ label: `${file} named`, cwd: work, args: ["--config", join(dir, file)] });
      }
      const packageDir = await project({
        "package.json": JSON.stringify({ name: "p", "skills-kernel": { plugins: PLUGINS } }),
      });
      cases.push({ label: "package.json key found", cwd: packageDir, args: [] });
      if (named)
        cases.push({
          label: "package.json key named",
          cwd: work,
          args: ["--config", join(packageDir, "package.json")],
        });
      const anyName = await project({ "configs/dev.yaml": YAML_CONFIG.replace("./skills", "../skills") });
      cases.push({ label: "--config with any name", cwd: anyName, args: ["--config", "configs/dev.yaml"] });

      const results = await listAll(runtime, cases);
      const outcomes = results.map((result, i) => ({
        form: cases[i]!.label,
        code: result.code,
        stdout: result.stdout,
        stderr: result.stderr,
      }));
      expect(outcomes).toEqual(cases.map(({ label }) => ({ form: label, code: 0, stdout: "alpha\n", stderr: "" })));
    });
  },
);
