import { stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { SkillsKernelConfig } from "../kernel/config.js";
import { ConfigError, errorMessage } from "../kernel/errors.js";
import { LOG_LEVELS } from "../kernel/logger.js";
import { refuseUntrusted } from "./config-trust.js";
import { jsonErrorOffset } from "./json-error-offset.js";
import { describeImportError, importModule, locateSyntaxError, oneLine } from "./module-loader.js";
import { describeValue } from "./plugin-resolver.js";
import type { Plugin } from "../kernel/types.js";
import { VERSION } from "../version.js";
import { describeKind, readRegularFile } from "../lib/regular-file.js";

/** A config file loadConfig read: the config, and where it came from, for createKernel's options. */
export interface LoadedConfig {
  /** The config the file exports, for createKernel's `config`. */
  readonly config: SkillsKernelConfig;
  /** Absolute path of the file the config came from. */
  readonly filepath: string;
  /** The config file's folder: where relative paths in the config are resolved from. */
  readonly baseDir: string;
  /** "named": given as `configPath`; "found": found by searching. */
  readonly origin: "named" | "found";
}

/** Where loadConfig looks for a config, and how far it trusts one it finds. */
export interface LoadConfigOptions {
  /** The folder the search starts from, and that `configPath` is relative to. */
  readonly cwd: string;
  /** A file to load instead of searching. Naming a file is consent to run it, whatever it holds. */
  readonly configPath?: string;
  /**
   * Let a config found by searching run code (a JS/TS config, plugins that are not built-ins) and
   * use what needs trust (docs/configuration.md#trust).
   */
  readonly trust?: boolean;
  /**
   * The plugins that run no code from the project (the built-ins, as createKernel gets them): a
   * found config may name them, and their `needsTrust` declarations are checked.
   */
  readonly builtins?: Readonly<Record<string, () => Promise<Plugin<any>>>>;
  /** The search never climbs above this folder (default: the user's home folder). */
  readonly home?: string;
  /** How the caller lets a found config be trusted, for the refusal message (e.g. the CLI's flags). */
  readonly trustHint?: (file: string) => string;
  /**
   * Whether the config's transport will be started (default true). A found config's transport
   * other than stdio needs trust only then: a command that answers and exits opens no listener.
   */
  readonly startsTransport?: boolean;
}

const MODULE_NAME = "skills-kernel";

/** Where a search looks, in order, in each folder. */
const SEARCH_PLACES = [
  "package.json",
  `.${MODULE_NAME}rc`,
  `.${MODULE_NAME}rc.json`,
  `.${MODULE_NAME}rc.yaml`,
  `.${MODULE_NAME}rc.yml`,
  "plugins.config.ts",
  "plugins.config.mts",
  "plugins.config.mjs",
  "plugins.config.js",
  "plugins.config.cjs",
  "plugins.config.json",
  "plugins.config.yaml",
  "plugins.config.yml",
  `${MODULE_NAME}.config.ts`,
  `${MODULE_NAME}.config.mjs`,
  `${MODULE_NAME}.config.js`,
];

/** A folder holding one of these is a project root: the search goes no higher. */
const PROJECT_MARKERS = [".git", "package.json"];

const MODULE_EXTENSIONS = new Set([".ts", ".mts", ".cts", ".mjs", ".js", ".cjs"]);

type Reader = (file: string, content: string) => Promise<Record<string, unknown>>;

/**
 * Loads the config file at `configPath` (relative to `cwd`), or searches for one (see
 * searchFolders for where), trying SEARCH_PLACES in order in each folder. Returns null when the
 * search finds nothing. A found config that would run code, reach the network, read a secret
 * from the environment or open a listener is refused unless `trust` is set: a config sitting in a
 * cloned repository is not the user's choice the way a named file is. Every problem is a one-line
 * ConfigError naming the file.
 */
export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig | null> {
  const name = (file: string) => displayPath(opts.cwd, file);
  const readers = createReaders(name);

  if (opts.configPath !== undefined) {
    const file = path.resolve(opts.cwd, opts.configPath);
    const stats = await stat(file).catch(() => undefined);
    if (!stats) throw new ConfigError(`config file ${opts.configPath} not found`);
    if (!stats.isFile())
      throw new ConfigError(`config file ${opts.configPath} is ${describeKind(stats)}, not a regular file`);
    const reader = readerFor(file, readers);
    if (!reader) {
      const supported = [...MODULE_EXTENSIONS, ".json", ".yaml", ".yml"];
      throw new ConfigError(
        `${name(file)}: unsupported config file type "${path.extname(file)}" (expected ${supported.join(", ")})`,
      );
    }
    const config = await readConfig(file, reader, name);
    if (config === undefined) throw new ConfigError(`${name(file)}: no "${MODULE_NAME}" key`);
    return { config, filepath: file, baseDir: path.dirname(file), origin: "named" };
  }

  const hint = opts.trustHint ?? (() => "load it by name (configPath) or pass trust: true");
  for (const folder of await searchFolders(path.resolve(opts.cwd), path.resolve(opts.home ?? os.homedir()))) {
    for (const place of SEARCH_PLACES) {
      const file = path.join(folder, place);
      if (!(await isFile(file))) continue;
      // Refused before it is read: importing a module is running it.
      if (!opts.trust && MODULE_EXTENSIONS.has(path.extname(file))) {
        throw new ConfigError(
          `${name(file)} was found by searching and is a JS/TS config, which runs code: ${hint(file)}`,
        );
      }
      const config = await readConfig(file, readerFor(file, readers)!, name);
      // A package.json without our key is no config: keep looking.
      if (config === undefined) continue;
      if (!opts.trust)
        await refuseUntrusted(
          opts.startsTransport === false ? { ...config, transport: undefined } : config,
          name(file),
          opts.builtins ?? {},
          hint(file),
          folder,
        );
      return { config, filepath: file, baseDir: folder, origin: "found" };
    }
  }
  return null;
}

/**
 * The folders a search looks in, nearest first: the working folder and each parent up to the
 * project root, the nearest folder holding .git or package.json. The search never reaches the
 * home folder or the filesystem root from below (where no project lives, and anyone's files may
 * sit); with no project root under them, only the working folder is searched.
 */
async function searchFolders(cwd: string, home: string): Promise<string[]> {
  const folders: string[] = [];
  for (let folder = cwd; ; ) {
    folders.push(folder);
    if (await isProjectRoot(folder)) return folders;
    const parent = path.dirname(folder);
    if (folder === home || parent === home || parent === folder || parent === path.parse(folder).root) return [cwd];
    folder = parent;
  }
}

async function isProjectRoot(folder: string): Promise<boolean> {
  for (const marker of PROJECT_MARKERS) {
    if (
      await stat(path.join(folder, marker)).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}

/** The config a file holds, validated; undefined for a package.json without our key. */
async function readConfig(
  file: string,
  reader: Reader,
  name: (file: string) => string,
): Promise<SkillsKernelConfig | undefined> {
  let content: string;
  try {
    content = await readRegularFile(file, "utf8");
  } catch (error) {
    throw new ConfigError(`${name(file)}: cannot read: ${oneLine(errorMessage(error))}`);
  }
  // An empty file where a config is expected is a mistake to report, not a reason to keep looking.
  if (content.trim() === "") throw new ConfigError(`${name(file)}: is empty`);
  let config: Record<string, unknown>;
  if (path.basename(file) === "package.json") {
    const manifest = await reader(file, content);
    if (!Object.hasOwn(manifest, MODULE_NAME)) return undefined;
    config = expectObject(manifest[MODULE_NAME], name(file), `the "${MODULE_NAME}" key`);
  } else {
    config = await reader(file, content);
  }
  validate(config, name(file));
  return config as SkillsKernelConfig;
}

function readerFor(file: string, readers: ReturnType<typeof createReaders>): Reader | undefined {
  const extension = path.extname(file);
  if (MODULE_EXTENSIONS.has(extension)) return readers.module;
  if (extension === ".json") return readers.json;
  // .skills-kernelrc: JSON or YAML, and YAML reads both.
  if (extension === ".yaml" || extension === ".yml" || extension === "") return readers.yaml;
  return undefined;
}

/** Each reader returns an object or throws a ConfigError naming the file. */
function createReaders(name: (file: string) => string) {
  const json: Reader = async (file, content) => {
    let value: unknown;
    try {
      // Editors on Windows may save a byte-order mark, which JSON.parse rejects.
      value = JSON.parse(content.replace(/^\uFEFF/, ""));
    } catch (error) {
      throw new ConfigError(`${name(file)}: invalid JSON${describeJsonError(errorMessage(error), content)}`);
    }
    return expectObject(value, name(file), "the config");
  };

  const yaml: Reader = async (file, content) => {
    // yaml is only needed by YAML configs: keep it off the path of the others. It is CommonJS, and
    // a bundle (like Node) gives imported CommonJS its module.exports as the default export only.
    const { parseDocument } = (await import("yaml")).default;
    // logLevel "silent": the parser would print a warning (an unknown tag) as a multi-line Node
    // warning; an error or a warning is one line here, and the config is refused.
    const document = parseDocument(content, { logLevel: "silent" });
    const problem = document.errors[0] ?? document.warnings[0];
    if (problem) {
      const reason = (problem.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:$/, "");
      const at = problem.linePos?.[0];
      throw new ConfigError(`${name(file)}: invalid YAML${at ? ` at ${at.line}:${at.col}` : ""}: ${reason}`);
    }
    const value: unknown = document.toJS({ logLevel: "silent" });
    // A document of nothing but comments parses to null.
    if (value === null) throw new ConfigError(`${name(file)}: is empty`);
    return expectObject(value, name(file), "the config");
  };

  const module: Reader = async (file) => {
    let namespace;
    try {
      namespace = await importModule(file);
    } catch (error) {
      throw new ConfigError(
        `${name(file)}: cannot load: ${describeImportError(await locateSyntaxError(error, file), file)}${ownPackageMissing(error)}`,
      );
    }
    if (!("default" in namespace)) {
      throw new ConfigError(`${name(file)}: has no default export (export default defineConfig({ ... }))`);
    }
    return expectObject(namespace.default, name(file), "the default export");
  };

  return { json, yaml, module };
}

/**
 * V8 reports where JSON broke as a character offset only for some mistakes (never for a trailing
 * comma), and quotes the whole input for others; Bun prefixes its messages. Turns each into
 * ` at line:column: reason`, finding the place itself when the runtime does not say.
 */
function describeJsonError(message: string, content: string): string {
  let reason = message.replace(/^JSON Parse error: /, "").replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, "");
  const given = / in JSON at position (\d+)/.exec(reason);
  if (given) reason = reason.slice(0, given.index);
  const offset = given ? Number(given[1]) : jsonErrorOffset(content.replace(/^\uFEFF/, ""));
  if (offset === undefined) return `: ${oneLine(reason)}`;
  const before = content.slice(0, offset).split("\n");
  return ` at ${before.length}:${(before.at(-1)?.length ?? 0) + 1}: ${oneLine(reason)}`;
}

/** One of `values`; the message lists them all, since a wrong value is usually a typo. */
function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, {
    error: (issue) => `expected one of ${values.join(", ")}, got ${describeValue(issue.input)}`,
  });
}

const policy = oneOf(["abort", "continue"]);

const MILLISECONDS = "expected a positive integer (milliseconds)";
const milliseconds = z.int({ error: MILLISECONDS }).positive({ error: MILLISECONDS });

/** A strict object whose unknown keys (typos, mostly) are reported with the keys it does know. */
function strictObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown key ${issue.keys.map((key) => JSON.stringify(key)).join(", ")} (expected ${known})`
        : `expected an object, got ${describeValue(issue.input)}`,
  });
}

/** Plugin entries are the resolver's to check: it knows what a name, a path and a plugin are. */
const configSchema = strictObject({
  plugins: z
    .array(z.unknown(), { error: (issue) => `expected an array, got ${describeValue(issue.input)}` })
    .optional(),
  transport: z.string({ error: "expected a transport name" }).min(1, { error: "expected a transport name" }).optional(),
  logLevel: oneOf(LOG_LEVELS).optional(),
  startup: strictObject({
    onPluginError: policy.optional(),
    setupTimeoutMs: milliseconds.optional(),
    stopTimeoutMs: milliseconds.optional(),
    plugins: z
      .record(z.string(), strictObject({ onPluginError: policy.optional(), setupTimeoutMs: milliseconds.optional() }), {
        error: (issue) => `expected an object keyed by plugin name, got ${describeValue(issue.input)}`,
      })
      .optional(),
  }).optional(),
});

function validate(config: Record<string, unknown>, file: string): void {
  const result = configSchema.safeParse(config);
  if (result.success) return;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.length > 0 ? `${formatPath(issue.path)}: ` : ""}${issue.message}`,
  );
  throw new ConfigError(`${file}: ${oneLine(problems.join("; "))}`);
}

/** `startup.plugins["@acme/x"].setupTimeoutMs`, `plugins[2]`. */
function formatPath(keys: readonly PropertyKey[]): string {
  let formatted = "";
  for (const key of keys) {
    if (typeof key === "number") formatted += `[${key}]`;
    else if (/^[\w$-]+$/.test(String(key))) formatted += `${formatted ? "." : ""}${String(key)}`;
    else formatted += `[${JSON.stringify(String(key))}]`;
  }
  return formatted;
}

function expectObject(value: unknown, file: string, what: string): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ConfigError(`${file}: ${what} must be an object, got ${describeValue(value)}`);
}

/** How a file is named in messages: relative to the working folder when it is inside it. */
function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Node, Bun and Deno's words for an import of skills-kernel that nothing installed resolves. */
const OWN_PACKAGE_NOT_FOUND = /(?:module|package) ['"]skills-kernel['"]|Import "skills-kernel" not a dependency/;

/**
 * A config run by `npx skills-kernel` (or a checkout's dist/cli.js) cannot import the package by
 * name unless it is installed beside the config: say the two ways out. Until the package is on
 * the npm registry, it installs from a tarball or a checkout (docs/getting-started.md).
 */
function ownPackageMissing(error: unknown): string {
  if (!(error instanceof Error) || !OWN_PACKAGE_NOT_FOUND.test(error.message)) return "";
  return ` (skills-kernel is not installed beside the config: install it there, npm install /path/to/skills-kernel-${VERSION}.tgz (npm pack in a checkout makes it) or npm install /path/to/its/checkout, or drop the import and export a plain object: export default { plugins: [...] })`;
}
