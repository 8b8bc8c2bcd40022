import { z } from "zod";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import { whenToUse } from "../../../skills/skill-md/claude-fields.js";
import { definePlugin } from "../../../kernel/config.js";
import {
  decodeText,
  SHOWN_FILES_LIMIT,
  skillFileOptionsSchema,
  truncationNote,
  withoutSecrets,
} from "../../../skills/files/skill-files.js";
import { ANSWER_CEILING_BYTES, cutToFit } from "../../../skills/files/answer-ceiling.js";
import { catalogReader } from "../../../skills/files/skill-reader.js";
import { SIGNATURE_FILE } from "../../../skills/signing/manifest.js";
import { describeSignature, signatureStatus } from "../../../skills/signing/status.js";
import type { SkillFileContent, SkillFileListing } from "../../../skills/types.js";
import { TOKENS } from "../../../tokens.js";

/** The `read_skill` tool: step 2 of 3, a skill's SKILL.md and the list of its other files. */
export default definePlugin({
  name: "read-skill",
  consumes: [{ token: TOKENS.SkillPolicy, optional: true }],
  options: skillFileOptionsSchema,
  setup(ctx, { maxFileBytes, includeSecretFiles }) {
    const policy = ctx.resolveOptional(TOKENS.SkillPolicy);
    ctx.addTool({
      name: "read_skill",
      title: "Read a skill",
      description:
        "Step 2 of 3: load one Agent Skill before doing the task it fits. Returns its whole SKILL.md (the " +
        "instructions, frontmatter included), its parsed frontmatter, and `files`: the other files of its folder " +
        "(references, scripts, assets) as paths relative to the skill folder, at most " +
        `${SHOWN_FILES_LIMIT} of them. Give skill_name as search_skills or list_skills gave the id (step 1). ` +
        "Step 3: when the instructions need one of those files, call fetch_skill_files with the same skill_name " +
        "and paths exactly as listed here; do not guess paths.",
      inputSchema: {
        skill_name: z.string().min(1).max(1024).describe("the skill's id: its name, or source:name"),
        source: z
          .string()
          .min(1)
          .max(256)
          .optional()
          .describe("only look in this source (the part before ':' in a qualified id)"),
      },
      outputSchema: {
        id: z.string(),
        qualified_id: z.string(),
        name: z.string(),
        source: z.string(),
        description: z.string(),
        when_to_use: z
          .string()
          .optional()
          .describe("when the skill applies, as its author put it beside the description"),
        frontmatter: z.record(z.string(), z.unknown()),
        content: z.string().describe("the whole SKILL.md, or its start when truncated"),
        size: z.number().int().describe("the SKILL.md's size in bytes"),
        truncated: z.boolean(),
        files: z.array(z.string()).describe("what fetch_skill_files accepts: paths relative to the skill folder"),
        omitted_files: z.number().int().describe("how many more files the folder holds beyond `files`"),
        signature: z
          .object({
            signed: z.boolean(),
            verified: z.boolean().optional(),
            signer: z.string().optional(),
            key: z.string().optional(),
            reason: z.string().optional(),
          })
          .describe("whether the skill is signed (SKILL.sig), and by whom when the server has allowed signers"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ skill_name, source }, { catalog }) {
        await catalog.ready();
        const skill = catalog.resolve(skill_name, source);
        const [read, listed] = await Promise.all([
          catalog.readDocument(skill, maxFileBytes),
          catalog.listFiles(skill, SHOWN_FILES_LIMIT),
        ]);
        const listing = withoutSecrets(listed, includeSecretFiles);
        // In the answer twice (text and structuredContent); the frontmatter and file list take the rest of it.
        const document = cutToFit(read, 2, ANSWER_CEILING_BYTES - ANSWER_CEILING_BYTES / 8);
        const content = decodeText(document.bytes, document.truncated);
        const hasSignature = listed.files.some((file) => file.path === SIGNATURE_FILE);
        const signature = await signatureStatus(catalogReader(catalog, skill), hasSignature, policy?.allowedSigners);
        const when = whenToUse(skill);
        return {
          // An unsigned skill, the usual case, adds nothing to the text an agent reads.
          content: [
            {
              type: "text",
              text: signature.signed
                ? `${render(skill, document, content, listing)}\n${describeSignature(signature)}`
                : render(skill, document, content, listing),
            },
          ],
          structuredContent: {
            id: skill.id,
            qualified_id: skill.qualifiedId,
            name: skill.name,
            source: skill.source,
            description: skill.description,
            ...(when === undefined ? {} : { when_to_use: when }),
            frontmatter: skill.frontmatter,
            content,
            size: document.size,
            truncated: document.truncated,
            files: listing.files.map((file) => file.path),
            omitted_files: listing.omitted,
            signature: { ...signature },
          },
        };
      },
    });
  },
});

function render(
  skill: CatalogSkill,
  document: SkillFileContent,
  content: string,
  listing: SkillFileListing & { withheld: number },
): string {
  const lines = [`Skill ${skill.id} (source ${skill.source}): its SKILL.md, then its files.`, "", content.trimEnd()];
  if (document.truncated) lines.push(truncationNote(document));
  lines.push("");
  const withheld =
    listing.withheld > 0
      ? `${listing.withheld} file${listing.withheld === 1 ? "" : "s"} named like credentials (.env, *.pem…) not served.`
      : "";
  if (listing.files.length === 0 && listing.omitted === 0) {
    lines.push("The skill folder holds no other files.", ...(withheld ? [withheld] : []));
    return lines.join("\n");
  }
  lines.push(
    `Files: fetch the ones the instructions call for with fetch_skill_files, skill_name ${JSON.stringify(skill.id)} ` +
      "and 1 to 5 of these paths per call:",
  );
  for (const file of listing.files) lines.push(`${file.path} (${file.size} bytes)`);
  if (listing.omitted > 0) {
    const more = listing.complete ? `${listing.omitted}` : `at least ${listing.omitted}`;
    lines.push(`... and ${more} more not shown; fetch_skill_files also accepts a path the SKILL.md names.`);
  }
  if (withheld) lines.push(withheld);
  return lines.join("\n");
}
