import { memorySkillFiles } from "@modelcontextprotocol/server/ext/skills";
import type { Plugin } from "../kernel/types.js";
import { sourceFromFiles } from "../kit/source-from-files.js";
import type { Visibility } from "../skills/catalog/visibility.js";

/**
 * A skill source plugin serving `files` (paths such as `pdf/SKILL.md` to their content) from
 * memory, under `name`: a test's skills without a folder on disk. Changes to the record are seen
 * at the catalog's next refresh.
 */
export function memorySource(
  name: string,
  files: Record<string, string | Uint8Array>,
  options: { readonly visibleTo?: Visibility } = {},
): Plugin<unknown> {
  return sourceFromFiles({
    name,
    description: "memory",
    files: memorySkillFiles(files),
    visibleTo: options.visibleTo,
  }) as Plugin<unknown>;
}

/** A SKILL.md with the given name and description, and a body: the smallest valid skill. */
export function skillMd(name: string, description: string, body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n${body}`;
}
