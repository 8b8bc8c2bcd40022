import { defineToken } from "../../../kernel/tokens.js";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { TOKENS } from "../../../tokens.js";
import { createInstaller, installOptionsSchema, type SkillInstaller } from "../../../lifecycle/installer.js";
import { BOOT_KERNEL } from "../../../lifecycle/boot.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";
import { addLifecycleTools } from "./lifecycle-tools.js";
import { renderInstall } from "./render.js";

/** The installer the tool uses; the CLI's `install` resolves it to reach folders the tool may not (--to DIR). */
export const SKILL_INSTALLER = defineToken<SkillInstaller>("skill-installer");

const resultSchema = {
  name: z.string(),
  from: z.string(),
  path: z.string(),
  dry_run: z.boolean(),
  replaced: z.boolean(),
  files: z.array(z.string()),
  bytes: z.number().int(),
  served_as: z.string().optional(),
  left_out: z
    .array(z.object({ path: z.string(), reason: z.string() }))
    .describe("files of the skill folder not copied, and why"),
  warnings: z.array(z.string()),
};

/** The `install_skill` tool: copies a served skill into the project's or the user's skills folder. */
export default definePlugin({
  name: "install-skill",
  provides: [SKILL_INSTALLER],
  // The whole catalog, for the CLI's installs and staging; each install reads through its caller's view.
  consumes: [
    { token: TOKENS.WholeCatalog, wholeCatalog: true },
    { token: BOOT_KERNEL, optional: true },
    { token: INTERNAL_TOKENS.HostLookup, optional: true },
  ],
  options: installOptionsSchema,
  needsTrust: {
    options: {
      targets: "install and install_skill write there",
      privateHosts: "add_skill fetches from them for callers over HTTP",
    },
  },
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.WholeCatalog);
    const installer = createInstaller(catalog, options.targets, options, ctx.baseDir);
    ctx.provide(SKILL_INSTALLER, installer);
    ctx.addTool({
      name: "install_skill",
      title: "Install a skill",
      description:
        `Copy a served skill into the project's skills folder (${installer.targets.project}) or the user's ` +
        `(${installer.targets.user}), under its name, so it is there for every agent. The skill is validated ` +
        "first: spec problems are warnings (strict: true refuses them), and only what is unsafe is refused; nothing in it " +
        "is run, and files named like credentials (.env, *.pem) are left out. Every file left out is listed in left_out. Refuses to replace an installed skill unless overwrite is true; dry_run " +
        "says what would be written without writing. The installed skill is served at once.",
      inputSchema: {
        skill_name: z.string().min(1).max(1024).describe("a served skill's id, as list_skills gives it"),
        source: z.string().min(1).max(255).optional().describe("take the skill of this name from this source"),
        target: z.enum(["project", "user"]).describe("project or user"),
        overwrite: z.boolean().optional().describe("replace a skill already installed under that name (default false)"),
        dry_run: z.boolean().optional().describe("only say what would be written (default false)"),
        strict: z
          .boolean()
          .optional()
          .describe("refuse a skill whose SKILL.md breaks the Agent Skills spec (default false: warn)"),
      },
      outputSchema: resultSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      async handler({ skill_name, source, target, overwrite = false, dry_run = false, strict = false }, extra) {
        const result = await installer.install({
          skill: skill_name,
          source,
          targetRoot: installer.targets[target],
          overwrite,
          dryRun: dry_run,
          strict,
          // notifications/cancelled aborts it: the install stops before its copy is moved into place.
          signal: extra.signal,
          // The caller's view, never one rebuilt from `identity`: a handler answers for the catalog it is given.
          catalog: extra.catalog,
        });
        return { content: [{ type: "text", text: renderInstall(result) }], structuredContent: { ...result } };
      },
    });
    addLifecycleTools(ctx, options, ctx.resolveOptional(BOOT_KERNEL));
  },
});

// The CLI's install command prints the tool's report.
export { renderInstall } from "./render.js";
