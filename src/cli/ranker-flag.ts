import { ConfigError } from "../kernel/errors.js";
import type { ResolvedPluginEntry } from "../kernel/config.js";
import { builtinPlugins } from "../plugins/index.js";
import { TOKENS } from "../tokens.js";

/** What `--ranker` takes: a built-in ranker plugin's name without its `ranker-` prefix. */
export const RANKER_CHOICES = ["bm25", "fuse", "semantic"] as const;
export type RankerChoice = (typeof RANKER_CHOICES)[number];

export function parseRankerFlag(value: string): RankerChoice {
  if (!(RANKER_CHOICES as readonly string[]).includes(value))
    throw new ConfigError(`--ranker must be one of ${RANKER_CHOICES.join(", ")}, not "${value.slice(0, 100)}"`);
  return value as RankerChoice;
}

/**
 * The plugin list with the ranker the flag chose in place of whichever the config had. A config's
 * own options for that same plugin are kept.
 */
export async function applyRankerChoice(
  plugins: ResolvedPluginEntry[],
  choice: RankerChoice,
): Promise<ResolvedPluginEntry[]> {
  const name = `ranker-${choice}`;
  const configured = plugins.find((entry) => entry.plugin.name === name);
  const plugin = configured?.plugin ?? (await builtinPlugins[name]!());
  const others = plugins.filter((entry) => !entry.plugin.provides?.includes(TOKENS.Ranker));
  return [...others, { plugin, options: configured?.options, origin: "--ranker" }];
}
