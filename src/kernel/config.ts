import type { LogLevel } from "./logger.js";
import type { Token } from "./tokens.js";
import type { Plugin, ServiceRef } from "./types.js";

/**
 * One plugin in a config:
 * - `"fs"`: a built-in plugin's short name, an npm package name, or a relative module path;
 * - `["fs", { roots: ["./skills"] }]`: the same with options;
 * - a plugin object (inline, or returned by a factory), or `[plugin, options]`;
 * - an array of entries that is not a `[plugin, options]` pair: a preset, flattened in place.
 */
export type PluginEntry =
  | string
  | Plugin<any>
  | readonly [string | Plugin<any>, Record<string, unknown>]
  | readonly PluginEntry[];

/** A config's plugin entry once its plugin is loaded: what the kernel boots, and what KernelOptions.adjustPlugins sees and returns. */
export interface ResolvedPluginEntry {
  /** The plugin object the entry named: a built-in, a package's or module's export, or the entry itself. */
  readonly plugin: Plugin<any>;
  /** The entry's options, raw and unvalidated; undefined when it gives none. */
  readonly options: unknown;
  /** How the entry named the plugin, for messages: "fs", "./my-plugin.ts", "skills-kernel-plugin-x", "inline". */
  readonly origin: string;
}

/**
 * What a plugin failing setup or start does to the boot: `abort` fails it; `continue` logs the error
 * and boots without that plugin and the plugins that need it.
 */
export type PluginErrorPolicy = "abort" | "continue";

/** How the kernel boots its plugins: what a failure does, and how long each hook may take. */
export interface StartupConfig {
  /** What a plugin that fails setup or start does to the boot. Default "abort". */
  readonly onPluginError?: PluginErrorPolicy;
  /** How long each plugin's setup, start and serve hooks may take. Default 10000 ms. */
  readonly setupTimeoutMs?: number;
  /** How long each plugin's stop hook may take before its signal is aborted and shutdown moves on. Default 5000 ms. */
  readonly stopTimeoutMs?: number;
  /** Per-plugin overrides, keyed by plugin name. */
  readonly plugins?: Readonly<Record<string, { onPluginError?: PluginErrorPolicy; setupTimeoutMs?: number }>>;
}

/** A kernel's config: what a config file holds (defineConfig types it), or what createKernel is given. */
export interface SkillsKernelConfig {
  /** The plugins to boot; PluginEntry says the forms an entry takes. */
  readonly plugins?: readonly PluginEntry[];
  /** The transport `serve` uses. Default "stdio". */
  readonly transport?: string;
  /** How much the kernel and its plugins log to stderr. Default "info". */
  readonly logLevel?: LogLevel;
  /** Failure policy and hook timeouts for the boot. */
  readonly startup?: StartupConfig;
}

/** Identity helper that gives a config file full types. */
export function defineConfig(config: SkillsKernelConfig): SkillsKernelConfig {
  return config;
}

/**
 * Identity helper that gives a plugin object full types: options inferred from its schema, and a
 * context that resolves only what `consumes` and `provides` list (anything else is a compile error).
 */
export function definePlugin<
  Options = undefined,
  const Consumes extends readonly ServiceRef[] = readonly [],
  const Provides extends readonly Token<any>[] = readonly [],
>(plugin: Plugin<Options, Consumes, Provides>): Plugin<Options, Consumes, Provides> {
  return plugin;
}
