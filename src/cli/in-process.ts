import { isEntryWithOptions } from "../config/plugin-resolver.js";
import type { PluginEntry, SkillsKernelConfig } from "../kernel/config.js";

/** Commands that call one tool in process: their kernel builds no MCP server (KernelOptions.inProcessOnly). */
export const IN_PROCESS_COMMANDS: ReadonlySet<string> = new Set(["list", "search", "read"]);

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

function withoutServerOnly(entries: readonly PluginEntry[]): PluginEntry[] {
  return entries.flatMap((entry): PluginEntry[] => {
    if (typeof entry === "string") return SERVER_ONLY_PLUGINS.has(entry) ? [] : [entry];
    if (!Array.isArray(entry)) return [entry];
    if (isEntryWithOptions(entry))
      return typeof entry[0] === "string" && SERVER_ONLY_PLUGINS.has(entry[0]) ? [] : [entry];
    return [withoutServerOnly(entry as readonly PluginEntry[])];
  });
}

/** The config as a kernel that only answers in process boots it: without the server-only built-ins. */
export function forInProcessUse(config: SkillsKernelConfig): SkillsKernelConfig {
  const startupPlugins = config.startup?.plugins;
  return {
    ...config,
    plugins: withoutServerOnly(config.plugins ?? []),
    ...(startupPlugins && {
      startup: {
        ...config.startup,
        plugins: Object.fromEntries(Object.entries(startupPlugins).filter(([name]) => !SERVER_ONLY_PLUGINS.has(name))),
      },
    }),
  };
}
