import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import {
  FETCHABLE_FILES_LIMIT,
  fetchSkillFiles,
  skillFileOptionsSchema,
  truncationNote,
} from "../../../skills/files/skill-files.js";
import { ANSWER_CEILING_BYTES, fitAnswer, type FittedFile } from "../../../skills/files/answer-ceiling.js";

/** Paths per call: enough for a step of a skill's instructions, small enough to keep a response readable. */
const MAX_PATHS = 5;

const fileResult = z.union([
  z.object({
    path: z.string(),
    content: z.string(),
    encoding: z.enum(["utf8", "base64"]),
    size: z.number().int().describe("the whole file's size in bytes"),
    truncated: z.boolean().optional().describe("true when content holds only the start of the file"),
  }),
  z.object({ path: z.string(), error: z.string() }),
]);

type FileResult = z.infer<typeof fileResult>;

/** The `fetch_skill_files` tool: step 3 of 3, files read_skill listed. */
export default definePlugin({
  name: "fetch-skill-files",
  options: skillFileOptionsSchema,
  setup(ctx, options) {
    const { maxFileBytes } = options;
    ctx.addTool({
      name: "fetch_skill_files",
      title: "Fetch skill files",
      description:
        `Step 3 of 3: read 1 to ${MAX_PATHS} files of a skill folder, after read_skill (step 2). Give the same ` +
        "skill_name and paths exactly as read_skill listed them in `files` (relative to the skill folder, e.g. " +
        `references/guide.md); a path the SKILL.md names works too if it is among the folder's first ` +
        `${FETCHABLE_FILES_LIMIT} files. Each file comes back on its own: { path, content, encoding, size, truncated? }, ` +
        "text as utf8 and anything else as base64, or { path, error } for a path that is not one of the skill's " +
        `files; one bad path never fails the others. Files over ${maxFileBytes} bytes are cut, and say so; files past ` +
        `a ${ANSWER_CEILING_BYTES}-byte answer are left out, saying to fetch them in a call of their own. ` +
        "Files named like credentials (.env, *.pem, *.key, .npmrc, id_rsa…) are not served.",
      inputSchema: {
        skill_name: z.string().min(1).max(1024).describe("the skill's id, as read_skill took it"),
        file_paths: z
          .array(z.string())
          .min(1)
          .max(MAX_PATHS)
          .describe(`1 to ${MAX_PATHS} paths from read_skill's files list`),
      },
      outputSchema: {
        skill: z.string().describe("the skill's id"),
        files: z.array(fileResult).describe("one result per path asked for, in order"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      async handler({ skill_name, file_paths }, { catalog }) {
        await catalog.ready();
        const skill = catalog.resolve(skill_name);
        // Each file's content is in the answer twice: the text an agent reads and structuredContent.
        const fetched = fitAnswer(await fetchSkillFiles(catalog, skill, file_paths, options, ctx.logger), 2);
        const files = fetched.map(toResult);
        return {
          content: fetched.map((entry, index) => ({ type: "text" as const, text: render(entry, files[index]!) })),
          structuredContent: { skill: skill.id, files },
        };
      },
    });
  },
});

function toResult(entry: FittedFile): FileResult {
  if ("error" in entry) return { path: entry.path, error: entry.error };
  const { content, encoding } = entry.encoded;
  return {
    path: entry.path,
    content,
    encoding,
    size: entry.file.size,
    ...(entry.file.truncated ? { truncated: true } : {}),
  };
}

function render(entry: FittedFile, result: FileResult): string {
  if ("error" in result) return `${result.path}: error: ${result.error}`;
  const header = `${result.path} (${result.size} bytes${result.encoding === "base64" ? ", binary, base64" : ""}):`;
  const note = "file" in entry && entry.file.truncated ? `\n${truncationNote(entry.file)}` : "";
  return `${header}\n${result.content}${note}`;
}
