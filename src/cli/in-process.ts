import { isEntryWithOptions } from "../config/plugin-resolver.js";
import type { PluginEntry, SkillsKernelConfig } from "../kernel/config.js";

/**
 * Commands that serve nothing, with the plugins of the built-in tools each calls in process: their
 * kernel builds no MCP server (KernelOptions.inProcessOnly) and registers no other built-in tool.
 * `export` calls none: it reads the catalog itself.
 */
export const IN_PROCESS_COMMANDS: ReadonlyMap<string, readonly string[]> = new Map([
  ["list", ["list-skills"]],
  ["search", ["search-skills"]],
  ["read", ["read-skill"]],
  ["export", []],
]);

/**
 * Built-ins that only register a tool nothing else consumes: a command that calls another tool,
 * or none, boots without them, and so without their code, option schemas and what they pull in
 * (the search index's ranker, the installer).
 */
const TOOL_PLUGINS: ReadonlySet<string> = new Set([
  "list-skills",
  "search-skills",
  "read-skill",
  "fetch-skill-files",
  "validate-skill",
  "install-skill",
  "audit-skill",
  "cache-stats",
]);

/**
 * Built-ins that only add to the MCP servers a kernel builds (resources, prompts, the skills
 * extension, instructions) and import the SDK's server to do so: a kernel that builds none
 * boots without them. Dropped from the config before its plugins are loaded.
 */
const SERVER_ONLY_PLUGINS: ReadonlySet<string> = new Set([
  "skill-resources",
  "skills-extension",
  "skill-prompts",
  "catalog-summary",
]);

function without(entries: readonly PluginEntry[], dropped: (name: string) => boolean): PluginEntry[] {
  return entries.flatMap((entry): PluginEntry[] => {
    if (typeof entry === "string") return dropped(entry) ? [] : [entry];
    if (!Array.isArray(entry)) return [entry];
    if (isEntryWithOptions(entry)) return typeof entry[0] === "string" && dropped(entry[0]) ? [] : [entry];
    return [without(entry as readonly PluginEntry[], dropped)];
  });
}

/**
 * The config as the kernel of an in-process command boots it: without the server-only built-ins,
 * nor the built-in tools other than the command's own (`tools`, plugin names).
 */
export function forInProcessUse(config: SkillsKernelConfig, tools: readonly string[]): SkillsKernelConfig {
  const dropped = (name: string) => SERVER_ONLY_PLUGINS.has(name) || (TOOL_PLUGINS.has(name) && !tools.includes(name));
  const startupPlugins = config.startup?.plugins;
  return {
    ...config,
    plugins: without(config.plugins ?? [], dropped),
    ...(startupPlugins && {
      startup: {
        ...config.startup,
        plugins: Object.fromEntries(Object.entries(startupPlugins).filter(([name]) => !dropped(name))),
      },
    }),
  };
}
