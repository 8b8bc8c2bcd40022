import { stat } from "node:fs/promises";
import path from "node:path";
import type { Loader, Loaders } from "cosmiconfig";
import { z } from "zod";
import type { SkillsKernelConfig } from "./config.js";
import { ConfigError, errorMessage } from "./errors.js";
import { LOG_LEVELS } from "./logger.js";
import { describeImportError, importModule, oneLine } from "./module-loader.js";
import { describeValue } from "./plugin-resolver.js";

export interface LoadedConfig {
  readonly config: SkillsKernelConfig;
  /** Absolute path of the file the config came from. */
  readonly filepath: string;
  /** The config file's folder: where relative paths in the config are resolved from. */
  readonly baseDir: string;
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
  `${MODULE_NAME}.config.ts`,
  `${MODULE_NAME}.config.mjs`,
  `${MODULE_NAME}.config.js`,
];

/**
 * Loads the config file at `configPath` (relative to `cwd`), or searches for one: each folder from
 * `cwd` up to the nearest one holding a package.json (cosmiconfig's "project" strategy: a config
 * never comes from outside the project), trying SEARCH_PLACES in order in each. Returns null when
 * the search finds nothing. Every problem with the file is a one-line ConfigError naming it.
 */
export async function loadConfig(opts: { cwd: string; configPath?: string }): Promise<LoadedConfig | null> {
  const name = (file: string) => displayPath(opts.cwd, file);
  const loaders = createLoaders(name);

  let explicit: string | undefined;
  if (opts.configPath !== undefined) {
    explicit = path.resolve(opts.cwd, opts.configPath);
    if (!(await isFile(explicit))) throw new ConfigError(`config file ${opts.configPath} not found`);
    const extension = path.extname(explicit) || "noExt";
    if (!Object.hasOwn(loaders, extension)) {
      const supported = Object.keys(loaders).filter((key) => key !== "noExt");
      throw new ConfigError(
        `${name(explicit)}: unsupported config file type "${extension}" (expected ${supported.join(", ")})`,
      );
    }
  }

  let result;
  try {
    // cosmiconfig is CommonJS: its module.exports is the default export both under Node and in
    // the esbuild bundle (which gives dynamically imported CommonJS no named exports).
    const { cosmiconfig } = (await import("cosmiconfig")).default;
    const explorer = cosmiconfig(MODULE_NAME, {
      searchPlaces: SEARCH_PLACES,
      searchStrategy: "project",
      loaders,
      // An empty file where a config is expected is a mistake to report, not a reason to keep looking.
      ignoreEmptySearchPlaces: false,
    });
    result = explicit === undefined ? await explorer.search(opts.cwd) : await explorer.load(explicit);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // Our loaders throw ConfigErrors; anything else is cosmiconfig's own (an unreadable file, its
    // meta-config in package.json) and carries the file it was reading.
    const file = (error as { filepath?: unknown }).filepath;
    throw new ConfigError(`${typeof file === "string" ? name(file) : "config"}: ${oneLine(errorMessage(error))}`);
  }

  if (result === null) {
    // Only a package.json without our key loads as null; searching skips it, naming it is an error.
    if (explicit !== undefined) throw new ConfigError(`${name(explicit)}: no "${MODULE_NAME}" key`);
    return null;
  }
  const file = name(result.filepath);
  if (result.isEmpty) throw new ConfigError(`${file}: is empty`);
  // The loaders check their own results; what is left is the value of package.json's key.
  const config = expectObject(result.config, file, `the "${MODULE_NAME}" key`);
  validate(config, file);
  return { config: config as SkillsKernelConfig, filepath: result.filepath, baseDir: path.dirname(result.filepath) };
}

/**
 * A loader must never return null: cosmiconfig would take it for "no config here" and keep
 * searching, so each one rejects null (and any non-object) itself.
 */
function createLoaders(name: (file: string) => string): Loaders {
  const loadJson: Loader = (file, content) => {
    let value: unknown;
    try {
      // Editors on Windows may save a byte-order mark, which JSON.parse rejects.
      value = JSON.parse(content.replace(/^\uFEFF/, ""));
    } catch (error) {
      throw new ConfigError(`${name(file)}: invalid JSON${describeJsonError(errorMessage(error), content)}`);
    }
    return expectObject(value, name(file), "the config");
  };

  const loadYaml: Loader = async (file, content) => {
    // yaml is only needed by YAML configs: keep it off the path of the others.
    const { parse, YAMLParseError } = await import("yaml");
    let value: unknown;
    try {
      value = parse(content);
    } catch (error) {
      if (!(error instanceof YAMLParseError)) throw error;
      const reason = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:$/, "");
      const at = error.linePos?.[0];
      throw new ConfigError(`${name(file)}: invalid YAML${at ? ` at ${at.line}:${at.col}` : ""}: ${reason}`);
    }
    // A document of nothing but comments parses to null.
    if (value === null) throw new ConfigError(`${name(file)}: is empty`);
    return expectObject(value, name(file), "the config");
  };

  const loadModule: Loader = async (file) => {
    let namespace;
    try {
      namespace = await importModule(file);
    } catch (error) {
      throw new ConfigError(`${name(file)}: cannot load: ${describeImportError(error, file)}`);
    }
    if (!("default" in namespace)) {
      throw new ConfigError(`${name(file)}: has no default export (export default defineConfig({ ... }))`);
    }
    return expectObject(namespace.default, name(file), "the default export");
  };

  return {
    ".ts": loadModule,
    ".mts": loadModule,
    ".cts": loadModule,
    ".mjs": loadModule,
    ".js": loadModule,
    ".cjs": loadModule,
    ".json": loadJson,
    ".yaml": loadYaml,
    ".yml": loadYaml,
    // .skills-kernelrc: JSON or YAML, and YAML reads both.
    noExt: loadYaml,
  };
}

/**
 * V8 reports where JSON broke as a character offset (and quotes the whole input when the offending
 * token is early); Bun prefixes its messages. Turns either into ` at line:column: reason`.
 */
function describeJsonError(message: string, content: string): string {
  let reason = message.replace(/^JSON Parse error: /, "").replace(/, ".*" is not valid JSON$/s, "");
  const offset = / in JSON at position (\d+)/.exec(reason);
  if (!offset) return `: ${oneLine(reason)}`;
  reason = reason.slice(0, offset.index);
  const before = content.slice(0, Number(offset[1])).split("\n");
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
  plugins: z.array(z.unknown(), { error: (issue) => `expected an array, got ${describeValue(issue.input)}` }).optional(),
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
