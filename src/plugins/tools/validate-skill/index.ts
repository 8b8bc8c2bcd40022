import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, posix, resolve } from "node:path";
import { z } from "zod";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { definePlugin } from "../../../kernel/config.js";
import { ToolInputError } from "../../../kernel/errors.js";
import { validateSkillDocument, type SkillValidation, type SpecIssue } from "../../../skills/skill-md/skill-spec.js";
import { expandHome, isWithin } from "../../../skills/files/paths.js";
import { MAX_VALIDATED_BYTES, servedRoots, validateSkillFolder } from "../../../skills/skill-md/validate-folder.js";
import { renderValidation } from "./render.js";
import { escapeForDisplay } from "../../../skills/display-text.js";

const issueSchema = z.object({ field: z.string(), message: z.string() });

/** The `validate_skill` tool: checks a skill against the Agent Skills specification. */
export default definePlugin({
  name: "validate-skill",
  setup(ctx) {
    ctx.addTool({
      name: "validate_skill",
      title: "Validate a skill",
      description:
        "Check an Agent Skill against the Agent Skills specification (agentskills.io): name and description " +
        "rules, optional fields, unknown fields, body length. Give exactly one of: skill_name (a served skill's id), " +
        "path (a skill folder inside a folder this server serves) or content (SKILL.md text, with directory_name " +
        "to check the name against its folder). Returns { valid, errors: [{ field, message }], warnings }.",
      inputSchema: {
        skill_name: z.string().min(1).max(1024).optional().describe("a served skill's id, as list_skills gives it"),
        path: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe("a skill folder inside a served root (absolute, or relative to the server's folder)"),
        content: z.string().max(MAX_VALIDATED_BYTES).optional().describe("the text of a SKILL.md"),
        directory_name: z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe("with content: the folder the skill would live in"),
      },
      outputSchema: { valid: z.boolean(), errors: z.array(issueSchema), warnings: z.array(issueSchema) },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ skill_name, path, content, directory_name }, { catalog }) {
        const given = [skill_name, path, content].filter((value) => value !== undefined).length;
        if (given !== 1) {
          throw new ToolInputError(
            `give exactly one of skill_name (a served skill), path (a skill folder) or content (SKILL.md text); got ${given}`,
          );
        }
        if (directory_name !== undefined && content === undefined) {
          throw new ToolInputError(
            "directory_name goes with content only: a served skill or a path has a folder of its own",
          );
        }
        let subject: string;
        let validation: SkillValidation;
        if (skill_name !== undefined) {
          ({ subject, validation } = await validateServed(catalog, skill_name));
        } else if (path !== undefined) {
          subject = path;
          // The folder's name as given, not a symlink target's: clients see the link's name.
          validation = await validateSkillFolder(
            await servedFolder(catalog, path, ctx.baseDir),
            basename(resolve(path)),
            escapeForDisplay(path),
          );
        } else {
          subject = directory_name ?? "content";
          validation = validateSkillDocument(content!, directory_name);
        }
        return {
          content: [{ type: "text", text: renderValidation(subject, validation) }],
          structuredContent: { ...validation },
        };
      },
    });
  },
});

/** A served skill, read through its source, so a skill from any source (remote ones too) can be checked. */
async function validateServed(
  catalog: CatalogView,
  id: string,
): Promise<{ subject: string; validation: SkillValidation }> {
  await catalog.ready();
  // An unknown id is refused here, naming the closest ones.
  const skill = catalog.resolve(id);
  const document = await catalog.readDocument(skill, MAX_VALIDATED_BYTES);
  const directoryName = folderName(catalog, skill);
  const text = new TextDecoder().decode(document.bytes);
  const validation = validateSkillDocument(text, directoryName, { truncated: document.truncated });
  const subject = skill.id === skill.qualifiedId ? skill.id : `${skill.id} (${skill.qualifiedId})`;
  if (directoryName !== undefined) return { subject, validation };
  const unchecked: SpecIssue = {
    field: "name",
    message: "not compared with its folder's name: the skill is a root of a source with several roots",
  };
  return { subject, validation: { ...validation, warnings: [unchecked, ...validation.warnings] } };
}

/** The folder a served skill lives in; a skill at a source's root is named by that root, when there is one. */
function folderName(catalog: CatalogView, skill: CatalogSkill): string | undefined {
  if (skill.path !== "") return posix.basename(skill.path);
  const roots = catalog.sources.find((source) => source.name === skill.source)?.capabilities?.localFolders ?? [];
  return roots.length === 1 ? basename(roots[0]!) : undefined;
}

/** The real path of `path` when it lies inside a folder some source serves; an error result otherwise. */
async function servedFolder(catalog: CatalogView, path: string, baseDir: string): Promise<string> {
  const absolute = resolve(baseDir, expandHome(path, homedir()));
  const roots = await servedRoots(catalog.sources);
  const configured = catalog.sources.flatMap((source) => source.capabilities?.localFolders ?? []);
  // The served folders stay unnamed: an agent must not learn the disk's layout from an error.
  const shown = escapeForDisplay(path);
  const outside = () =>
    new ToolInputError(
      `${shown} is not inside a folder this server serves; validate a served skill by skill_name, or pass its SKILL.md as content`,
    );
  // Checked before touching the disk, so an agent cannot learn what exists elsewhere.
  if (![...configured, ...roots.map(({ root }) => root)].some((root) => isWithin(absolute, root))) throw outside();
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolInputError(
      code === "ENOENT" ? `${shown} does not exist` : `cannot read ${shown} (${code ?? "unknown error"})`,
    );
  }
  // A symlink inside a root may lead anywhere: what counts is where it leads.
  if (!roots.some(({ root }) => isWithin(real, root))) throw outside();
  return real;
}

// The CLI's validate command prints the tool's report.
export { plural, renderValidation } from "./render.js";
