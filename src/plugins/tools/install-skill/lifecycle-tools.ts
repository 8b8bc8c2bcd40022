import { z } from "zod";
import { errorMessage, ToolInputError, UserError } from "../../../kernel/errors.js";
import type { PluginContext } from "../../../kernel/types.js";
import { checkRemoteTarget } from "./remote-target.js";
import { systemLookup } from "../../../remote/address-guard.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";
import type { BootKernel } from "../../../lifecycle/boot.js";

const scopeInput = {
  global: z.boolean().optional().describe("the user's skills and lock instead of the project's (default false)"),
};

const installedRow = z.object({
  name: z.string(),
  state: z.enum(["ok", "modified", "missing"]),
  agents: z.array(z.string()),
  source: z.string(),
  sourceType: z.string(),
  ref: z.string().nullable(),
  pinned: z.boolean(),
  commit: z.string().nullable(),
  version: z.string().nullable(),
  mode: z.string().nullable(),
  missingFor: z.array(z.string()).describe("agents whose folder lacks the skill"),
  differing: z.array(z.string()).describe("files that differ from the lock, for a modified skill"),
  installedBy: z.enum(["skills-kernel", "npx skills"]),
  folders: z
    .array(z.object({ folder: z.string(), readBy: z.array(z.string()) }))
    .describe("the folders holding the skill, and every agent that reads each: all of them load it"),
});

const outdatedRow = z.object({
  name: z.string(),
  status: z.enum(["current", "outdated", "pinned", "unknown"]),
  current: z.string().nullable(),
  latest: z.string().nullable(),
  note: z.string().optional(),
});

const addedSkill = z.object({
  folder: z.string(),
  source: z.string(),
  sourceType: z.string(),
  url: z.string().optional(),
  ref: z.string().optional(),
  pinned: z.boolean().optional(),
  commit: z.string().optional(),
  version: z.string().optional(),
  digest: z.string().optional(),
  indexUrl: z.string().optional(),
  path: z.string().optional(),
  name: z.string().optional(),
  signer: z.object({ key: z.string(), principal: z.string().optional() }).optional(),
  agents: z.array(z.string()),
  mode: z.enum(["link", "copy"]),
  files: z.array(z.string()),
  warnings: z.array(z.string()),
  copies: z.array(z.string()),
  dry_run: z.boolean(),
});

/**
 * list_installed_skills, check_outdated_skills and add_skill: what `skills-kernel installed` and `outdated`
 * say, for an agent deciding whether to suggest an update. The lifecycle code loads on first call.
 */
export function addLifecycleTools(
  ctx: PluginContext,
  { privateHosts }: { readonly privateHosts: readonly string[] },
  boot: BootKernel | undefined,
): void {
  const lookup = ctx.resolveOptional(INTERNAL_TOKENS.HostLookup) ?? systemLookup;
  // Sources open in a kernel of their own, which the running kernel boots (src/lifecycle/boot.ts).
  const bootKernel: BootKernel = (options) => {
    if (!boot) throw new ToolInputError("this server cannot open sources: it was not booted by createKernel");
    return boot(options);
  };
  const scopeOf = async (global: boolean) =>
    (await import("../../../lifecycle/project.js")).scopeFor(global, ctx.baseDir);
  ctx.addTool({
    name: "list_installed_skills",
    title: "List installed skills",
    description:
      "The skills recorded in the project's skills-lock.json (or the user's, global: true): for each, the agents it is " +
      "installed for, its source, ref and commit, and its state: ok, modified (with the files edited locally) or missing.",
    inputSchema: scopeInput,
    outputSchema: { skills: z.array(installedRow) },
    annotations: { readOnlyHint: true, openWorldHint: false },
    // The server account's lock files name its skills' repositories, private ones included.
    operatorOnly: true,
    async handler({ global = false }) {
      const { installedRows } = await import("../../../lifecycle/report.js");
      const skills = await installedRows(await scopeOf(global));
      const text =
        skills.length === 0
          ? "No skills are recorded in the lock."
          : skills.map((s) => `${s.name}: ${s.state} (${s.agents.join(", ")}) from ${s.source}`).join("\n");
      return { content: [{ type: "text", text }], structuredContent: { skills } };
    },
  });
  ctx.addTool({
    name: "add_skill",
    title: "Add skills from a repository or catalog",
    description:
      "Install skills from a remote source into the project's agent folders (or the user's, global: true) and record them in " +
      "skills-lock.json, as `skills-kernel add` does: source is owner/repo or an https/ssh git URL (then #REF and :PATH; a tag or " +
      "commit pins), an http(s) catalog URL ending in .json, or an http(s) .tar.gz, .tgz or .zip of skills. Each skill passes install_skill's checks before anything is " +
      "written. Local folders, archives and file:// repositories are for the CLI only.",
    inputSchema: {
      source: z
        .string()
        .min(1)
        .max(2048)
        .describe(
          "owner/repo, a git URL (https://, ssh://, user@host:path) with #REF and :PATH, a catalog URL or an archive URL",
        ),
      skills: z
        .array(z.string().min(1).max(255))
        .max(100)
        .optional()
        .describe("only these skills of the source (default: all)"),
      agents: z
        .array(z.string().min(1).max(64))
        .max(32)
        .optional()
        .describe("agent ids (docs/agents.md); default: those detected, else claude-code"),
      all_agents: z.boolean().optional().describe("every agent's folder"),
      ...scopeInput,
      copy: z.boolean().optional().describe("a copy per agent instead of one copy linked (default false)"),
      dry_run: z.boolean().optional().describe("only say what would be added (default false)"),
      strict: z.boolean().optional().describe("refuse a SKILL.md that breaks the spec (default false: warn)"),
    },
    outputSchema: { added: z.array(addedSkill), failures: z.array(z.string()), notes: z.array(z.string()) },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async handler(
      {
        source,
        skills = [],
        agents = [],
        all_agents = false,
        global = false,
        copy = false,
        dry_run = false,
        strict = false,
      },
      extra,
    ) {
      const [{ parseSource }, { chooseAgents }, { addSkills }, { resolveRef }, { openSource }] = await Promise.all([
        import("../../../lifecycle/source-spec.js"),
        import("../../../lifecycle/agents.js"),
        import("../../../lifecycle/add.js"),
        import("../../../lifecycle/resolve-git.js"),
        import("../../../lifecycle/fetch.js"),
      ]);
      let parsed: ReturnType<typeof parseSource>;
      try {
        parsed = parseSource(source, ctx.baseDir);
      } catch (error) {
        // A source that names nothing, or that could become a git option, is the caller's mistake.
        throw new ToolInputError(errorMessage(error));
      }
      const { spec } = parsed;
      const localArchive = spec.kind === "archive" && !/^https?:\/\//i.test(spec.location);
      if (
        spec.kind === "local" ||
        localArchive ||
        (spec.kind === "git" && !/^(?:https:|ssh:|[A-Za-z0-9._-]+@)/.test(spec.repository.url))
      ) {
        throw new ToolInputError(
          "add_skill takes owner/repo, an https or ssh git URL, a catalog URL or an archive URL; add a local folder, archive or file:// repository with the CLI",
        );
      }
      // For a caller over HTTP every connection the source makes is checked as it opens, and git is
      // pinned to an address just checked: a name that resolves otherwise later reaches nothing inside.
      const addressGuard = extra.remote ? { privateHosts, lookup } : undefined;
      if (addressGuard)
        await checkRemoteTarget(
          spec.kind === "git" ? spec.repository.url : spec.kind === "archive" ? spec.location : spec.url,
          addressGuard,
        );
      // The host just checked is the only one git may reach: a redirect could lead anywhere.
      const followRedirects = !extra.remote;
      const scope = await scopeOf(global);
      // A remote that cannot be asked is the caller's to see, not an internal error.
      const resolved =
        spec.kind === "git"
          ? await resolveRef(
              spec.repository.url,
              spec.repository.ref,
              spec.repository.credentials,
              followRedirects,
              addressGuard,
            ).catch((error: unknown) => {
              throw new ToolInputError(`${source}: ${errorMessage(error)}`);
            })
          : undefined;
      const catalogToken = process.env.SKILLS_KERNEL_CATALOG_TOKEN || undefined;
      // A source that cannot be read, or lacks the skills named, is the caller's to hear, as the CLI says it.
      const outcome = await addSkills(
        {
          spec,
          wanted: [...new Set([...skills, ...(parsed.skill ? [parsed.skill] : [])])],
          agents: chooseAgents(agents, all_agents, scope),
          mode: copy ? "copy" : "link",
          scope,
          force: false,
          strict,
          dryRun: dry_run,
          resolved,
        },
        (opened, commit) =>
          openSource(opened, {
            boot: bootKernel,
            logger: ctx.logger,
            cwd: ctx.baseDir,
            commit,
            catalogToken,
            followRedirects,
            addressGuard,
          }),
      ).catch((error: unknown) => {
        throw error instanceof UserError ? new ToolInputError(errorMessage(error)) : error;
      });
      const lines = [
        ...outcome.added.map(
          (a) =>
            `${a.dry_run ? "would add" : "added"} ${a.folder} for ${a.agents.join(", ")} (${a.files.length} files)`,
        ),
        ...outcome.failures,
        ...outcome.notes.map((note) => `note: ${note}`),
      ];
      return {
        content: [{ type: "text", text: lines.join("\n") }],
        structuredContent: { ...outcome },
        isError: outcome.added.length === 0,
      };
    },
  });
  ctx.addTool({
    name: "check_outdated_skills",
    title: "Check installed skills for updates",
    description:
      "For each skill in the lock, whether its own files changed at its source (a tracked branch's new commit that leaves " +
      "a skill's files as they were leaves it current). Pinned skills (a tag or a commit) are reported as pinned, never as outdated. `skills-kernel update` applies updates.",
    inputSchema: scopeInput,
    outputSchema: { skills: z.array(outdatedRow) },
    annotations: { readOnlyHint: true, openWorldHint: true },
    // It reads the server account's lock files and runs git ls-remote against what they name.
    operatorOnly: true,
    async handler({ global = false }) {
      const [{ outdatedRows }, { openSource }] = await Promise.all([
        import("../../../lifecycle/report.js"),
        import("../../../lifecycle/fetch.js"),
      ]);
      const catalogToken = process.env.SKILLS_KERNEL_CATALOG_TOKEN || undefined;
      const open = (spec: Parameters<typeof openSource>[0], commit?: string) =>
        openSource(spec, { boot: bootKernel, logger: ctx.logger, cwd: ctx.baseDir, commit, catalogToken });
      const skills = await outdatedRows(await scopeOf(global), open);
      const text =
        skills.length === 0
          ? "No skills are recorded in the lock."
          : skills.map((s) => `${s.name}: ${s.status}${s.note ? ` (${s.note})` : ""}`).join("\n");
      return { content: [{ type: "text", text }], structuredContent: { skills } };
    },
  });
}
