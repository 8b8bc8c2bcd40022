import { z } from "zod";
import type { PluginContext } from "../../kernel/types.js";

const scopeInput = {
  global: z.boolean().optional().describe("the user's skills and lock instead of the project's (default false)"),
};

const installedRow = z.object({
  name: z.string(),
  state: z.enum(["ok", "modified", "missing"]),
  agents: z.array(z.string()),
  source: z.string(),
  source_type: z.string(),
  ref: z.string().nullable(),
  pinned: z.boolean(),
  commit: z.string().nullable(),
  version: z.string().nullable(),
  mode: z.string().nullable(),
  missing_for: z.array(z.string()).describe("agents whose folder lacks the skill"),
  differing: z.array(z.string()).describe("files that differ from the lock, for a modified skill"),
  installed_by: z.enum(["skills-kernel", "npx skills"]),
});

const outdatedRow = z.object({
  name: z.string(),
  status: z.enum(["current", "outdated", "pinned", "unknown"]),
  current: z.string().nullable(),
  latest: z.string().nullable(),
  note: z.string().optional(),
});

/**
 * list_installed_skills and check_outdated_skills: what `skills-kernel installed` and `outdated`
 * say, for an agent deciding whether to suggest an update. The lifecycle code loads on first call.
 */
export function addLifecycleTools(ctx: PluginContext): void {
  const scopeOf = async (global: boolean) => (await import("../../lifecycle/project.js")).scopeFor(global, ctx.baseDir);
  ctx.addTool({
    name: "list_installed_skills",
    title: "List installed skills",
    description:
      "The skills recorded in the project's skills-lock.json (or the user's, global: true): for each, the agents it is " +
      "installed for, its source, ref and commit, and its state: ok, modified (with the files edited locally) or missing.",
    inputSchema: scopeInput,
    outputSchema: { skills: z.array(installedRow) },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler({ global = false }) {
      const { installedRows } = await import("../../lifecycle/report.js");
      const skills = await installedRows(await scopeOf(global));
      const text = skills.length === 0 ? "No skills are recorded in the lock." : skills.map((s) => `${s.name}: ${s.state} (${s.agents.join(", ")}) from ${s.source}`).join("\n");
      return { content: [{ type: "text", text }], structuredContent: { skills } };
    },
  });
  ctx.addTool({
    name: "check_outdated_skills",
    title: "Check installed skills for updates",
    description:
      "For each skill in the lock, whether its source moved on: a tracked branch's new commit, or a catalog's or folder's " +
      "new content. Pinned skills (a tag or a commit) are reported as pinned, never as outdated. `skills-kernel update` applies updates.",
    inputSchema: scopeInput,
    outputSchema: { skills: z.array(outdatedRow) },
    annotations: { readOnlyHint: true, openWorldHint: true },
    async handler({ global = false }) {
      const [{ outdatedRows }, { openSource }] = await Promise.all([import("../../lifecycle/report.js"), import("../../lifecycle/fetch.js")]);
      const catalogToken = process.env.SKILLS_KERNEL_CATALOG_TOKEN || undefined;
      const open = (spec: Parameters<typeof openSource>[0], commit?: string) => openSource(spec, { logger: ctx.logger, cwd: ctx.baseDir, commit, catalogToken });
      const skills = await outdatedRows(await scopeOf(global), ctx.baseDir, open);
      const text = skills.length === 0 ? "No skills are recorded in the lock." : skills.map((s) => `${s.name}: ${s.status}${s.note ? ` (${s.note})` : ""}`).join("\n");
      return { content: [{ type: "text", text }], structuredContent: { skills } };
    },
  });
}
