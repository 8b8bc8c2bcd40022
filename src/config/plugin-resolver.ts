import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PluginEntry, ResolvedPluginEntry } from "../kernel/config.js";
import { ConfigError } from "../kernel/errors.js";
import { describeImportError, importModule, type ModuleNamespace } from "./module-loader.js";
import { pluginNotFound } from "./plugin-not-found.js";
import type { Plugin } from "../kernel/types.js";

export interface ResolvePluginOptions {
  /** Where relative module paths and npm packages are resolved from: the config file's folder. */
  readonly baseDir: string;
  /** Built-in plugins by short name; a short name wins over a package of the same name. */
  readonly builtins: Readonly<Record<string, () => Promise<Plugin<any>>>>;
  /** What the entries came from, to prefix messages: the config file, or "command line". */
  readonly source: string;
}

/** Presets of presets are fine; this deep is a cycle or a mistake. */
const MAX_PRESET_DEPTH = 16;

/** One entry once presets are flattened. */
interface FlatEntry {
  /** Its position in the config, e.g. `plugins[2][0]`. */
  readonly at: string;
  readonly ref: string | object;
  readonly options: unknown;
}

/**
 * Turns config entries into plugins, in order, presets flattened in place:
 * - a string is a built-in's short name, else a module path (`./x.ts`, `/abs/x.mjs`, `C:\x.js`)
 *   resolved from baseDir, else an npm package (`skills-kernel-plugin-x`, `@acme/plugin/sub`)
 *   resolved from baseDir;
 * - `[nameOrPlugin, options]`, where options is a plain object that is not itself a plugin, adds
 *   options; any other array is a preset;
 * - an object is an inline plugin.
 * A module's plugin is its default export, or the module itself when it exports `name` and
 * `setup`. A plugin is a plain object: a default export that is a function is not called, since a
 * factory takes options only the config can give (call it there: `plugins: [myPlugin({ ... })]`).
 * Options are not validated here: that needs the plugin's schema, which the kernel applies.
 */
export async function resolvePluginEntries(
  entries: readonly PluginEntry[],
  opts: ResolvePluginOptions,
): Promise<ResolvedPluginEntry[]> {
  const flat: FlatEntry[] = [];
  flatten(entries, "plugins", 0, flat, opts.source);

  // Modules load concurrently; failures are reported in config order, so the message is stable.
  const settled = await Promise.allSettled(flat.map((entry) => resolveEntry(entry, opts)));
  const resolved: ResolvedPluginEntry[] = [];
  const positions = new Map<string, string>();
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === "rejected") throw outcome.reason;
    const { name } = outcome.value.plugin;
    const at = flat[index]!.at;
    const first = positions.get(name);
    if (first !== undefined)
      throw new ConfigError(`${opts.source}: plugin "${name}" is listed twice (${first} and ${at})`);
    positions.set(name, at);
    resolved.push(outcome.value);
  }
  return resolved;
}

/**
 * The entries named by a string, presets flattened, with their raw options: each names a
 * built-in, a module path or an npm package. The config loader checks them before anything is
 * imported.
 */
export function namedPluginEntries(
  entries: readonly unknown[],
  source: string,
): { readonly ref: string; readonly options: unknown }[] {
  const flat: FlatEntry[] = [];
  flatten(entries, "plugins", 0, flat, source);
  return flat.flatMap((entry) => (typeof entry.ref === "string" ? [{ ref: entry.ref, options: entry.options }] : []));
}

function flatten(list: readonly unknown[], at: string, depth: number, out: FlatEntry[], source: string): void {
  if (depth > MAX_PRESET_DEPTH) {
    throw new ConfigError(
      `${source}: ${at}: presets nested more than ${MAX_PRESET_DEPTH} deep (does one contain itself?)`,
    );
  }
  list.forEach((entry, index) => {
    const entryAt = `${at}[${index}]`;
    if (typeof entry === "string" || isPluginLike(entry)) {
      out.push({ at: entryAt, ref: entry, options: undefined });
    } else if (isEntryWithOptions(entry)) {
      out.push({ at: entryAt, ref: entry[0], options: entry[1] });
    } else if (Array.isArray(entry)) {
      flatten(entry, entryAt, depth + 1, out, source);
    } else {
      const hint =
        typeof entry === "function"
          ? " (a plugin factory must be called: myPlugin({ ... }))"
          : isPlainObject(entry)
            ? " (options go with their plugin: [name, options])"
            : "";
      throw new ConfigError(
        `${source}: ${entryAt}: expected a plugin name, [name, options], a plugin object or an array of them, got ${describeValue(entry)}${hint}`,
      );
    }
  });
}

/** An object that means to be a plugin; checkPlugin says what is wrong with it if it is not one. */
function isPluginLike(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value) && ("name" in value || "setup" in value);
}

export function isEntryWithOptions(value: unknown): value is readonly [string | object, Record<string, unknown>] {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [ref, options] = value as unknown[];
  return (
    (typeof ref === "string" || isPluginLike(ref)) &&
    isPlainObject(options) &&
    typeof (options as { setup?: unknown }).setup !== "function"
  );
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

async function resolveEntry(entry: FlatEntry, opts: ResolvePluginOptions): Promise<ResolvedPluginEntry> {
  const { ref, options } = entry;
  if (typeof ref !== "string") {
    return { plugin: checkPlugin(ref, entry.at, opts.source), options, origin: "inline" };
  }
  const builtin = Object.hasOwn(opts.builtins, ref) ? opts.builtins[ref] : undefined;
  if (builtin) return { plugin: checkPlugin(await builtin(), ref, opts.source), options, origin: ref };

  const file = isModulePath(ref) ? await resolveModulePath(ref, opts) : await resolvePackage(ref, opts);
  let namespace: ModuleNamespace;
  try {
    namespace = await importModule(file);
  } catch (error) {
    throw new ConfigError(`${opts.source}: cannot load plugin module ${ref}: ${describeImportError(error, file)}`);
  }
  return { plugin: pluginFromModule(namespace, ref, opts.source), options, origin: ref };
}

/**
 * npm names never start with "." and are never absolute. Windows rules decide what is absolute on
 * every platform: they take POSIX absolute paths as well as `C:\x` and `\\server\x`.
 */
function isModulePath(ref: string): boolean {
  return ref.startsWith(".") || path.win32.isAbsolute(ref);
}

async function resolveModulePath(ref: string, opts: ResolvePluginOptions): Promise<string> {
  const file = path.resolve(opts.baseDir, ref);
  // Checked up front: the runtime's own message would name the kernel's file as the importer.
  const found = await stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
  if (!found) throw new ConfigError(`${opts.source}: cannot load plugin module ${ref}: ${file} does not exist`);
  return file;
}

async function resolvePackage(ref: string, opts: ResolvePluginOptions): Promise<string> {
  const url = await resolvePackageUrl(ref, opts);
  // Node's own modules ("path", "node:fs") resolve too, but to node: URLs.
  if (url === undefined || !url.startsWith("file:")) {
    throw new ConfigError(`${opts.source}: ${pluginNotFound(ref, Object.keys(opts.builtins), opts.baseDir)}`);
  }
  return fileURLToPath(url);
}

/** Where a package name resolves from baseDir; undefined when no such package is installed. Reads files only, runs nothing. */
async function resolvePackageUrl(ref: string, opts: ResolvePluginOptions): Promise<string | undefined> {
  // import-meta-resolve is Node's ESM resolution (exports, conditions) as a library: only configs
  // naming npm packages load it.
  const { resolve } = await import("import-meta-resolve");
  try {
    return resolve(ref, pathToFileURL(path.join(opts.baseDir, "/")).href);
  } catch (error) {
    if (!isMissingPackage(error)) {
      throw new ConfigError(`${opts.source}: cannot load plugin module ${ref}: ${describeImportError(error, ref)}`);
    }
    return undefined;
  }
}

/**
 * Why a plugin package name is wrong before anything would load it (a built-in's typo, or a package
 * not installed): a config found by searching is refused for running code only when its names are
 * right, so a typo reads as a typo wherever the config came from.
 */
export async function misnamedPlugin(ref: string, opts: ResolvePluginOptions): Promise<string | undefined> {
  if (Object.hasOwn(opts.builtins, ref) || isModulePath(ref)) return undefined;
  const url = await resolvePackageUrl(ref, opts);
  return url?.startsWith("file:") ? undefined : pluginNotFound(ref, Object.keys(opts.builtins), opts.baseDir);
}

/** Not installed, or not a name a package could have; a broken installed package is another matter. */
function isMissingPackage(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    code === "ERR_INVALID_MODULE_SPECIFIER" ||
    (code === "ERR_MODULE_NOT_FOUND" && (error as Error).message.startsWith("Cannot find package "))
  );
}

function pluginFromModule(namespace: ModuleNamespace, ref: string, source: string): Plugin<any> {
  const candidate = namespace.default !== undefined ? namespace.default : namespace;
  if (typeof candidate === "function") {
    throw new ConfigError(
      `${source}: ${ref} exports a function, not a plugin object: import it in a JS or TS config and call it there (plugins: [myPlugin({ ... })])`,
    );
  }
  if (!isPluginLike(candidate)) {
    throw new ConfigError(`${source}: ${ref} does not export a plugin (expected a default export with name and setup)`);
  }
  return checkPlugin(candidate, ref, source);
}

/** `label` says where the plugin came from: its position in the config, or the name it was given. */
function checkPlugin(value: unknown, label: string, source: string): Plugin<any> {
  const plugin = value as Partial<Record<keyof Plugin, unknown>> | null;
  if (typeof plugin?.name !== "string" || plugin.name === "") {
    throw new ConfigError(
      `${source}: ${label}: a plugin needs a name (a non-empty string), got ${describeValue(plugin?.name)}`,
    );
  }
  const problem = (text: string) => new ConfigError(`${source}: plugin "${plugin.name}" (${label}): ${text}`);
  if (typeof plugin.setup !== "function") throw problem("setup must be a function");
  const { dependsOn } = plugin;
  if (dependsOn !== undefined && !(Array.isArray(dependsOn) && dependsOn.every((name) => typeof name === "string"))) {
    throw problem("dependsOn must be an array of plugin names");
  }
  const standard = (plugin.options as { "~standard"?: { validate?: unknown } } | undefined)?.["~standard"];
  if (plugin.options !== undefined && typeof standard?.validate !== "function") {
    throw problem("options must be a Standard Schema (zod, valibot, arktype...): no ~standard.validate");
  }
  return value as Plugin<any>;
}

/** A short description of a value of the wrong kind, for messages. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
    case "number":
    case "boolean":
    case "bigint":
    case "undefined":
      return String(value);
    case "function":
      return "a function";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}
