import type { StandardSchemaV1 } from "@standard-schema/spec";
import { ConfigError, ERROR_CODES } from "./errors.js";
import type { Plugin } from "./types.js";

/**
 * Validate a plugin's options against its Standard Schema and return the parsed value (defaults
 * applied). A plugin without a schema takes no options; giving it some is a config mistake.
 */
export async function validatePluginOptions(plugin: Plugin<any>, raw: unknown, source: string): Promise<unknown> {
  const schema = plugin.options;
  if (!schema) {
    if (raw !== undefined)
      throw new ConfigError(`${source}: plugin "${plugin.name}" takes no options`, ERROR_CODES.PLUGIN_OPTIONS);
    return undefined;
  }
  const result = await schema["~standard"].validate(raw ?? {});
  if (!result.issues) return result.value;
  const problems = result.issues.map((issue) => {
    const path = formatPath(issue.path);
    return path ? `option ${path}: ${issue.message}` : issue.message;
  });
  throw new ConfigError(`${source}: plugin "${plugin.name}": ${problems.join("; ")}`, ERROR_CODES.PLUGIN_OPTIONS);
}

function formatPath(path: StandardSchemaV1.Issue["path"]): string {
  let out = "";
  for (const segment of path ?? []) {
    const key = typeof segment === "object" ? segment.key : segment;
    out += typeof key === "number" ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out;
}
