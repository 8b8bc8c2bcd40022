import type { CallToolResult } from "@modelcontextprotocol/server";
import { UserError } from "../kernel/errors.js";
import type { SkillsKernel as Kernel } from "../create-kernel.js";
import type { CliArgs } from "./args.js";
import { describeUnavailable, MAX_PAGE_SIZE, type SkillList } from "../plugins/tools/list-skills/index.js";
import { renderAnswer } from "../plugins/tools/cache-stats/index.js";
import { TOKENS } from "../tokens.js";
import type { CliIo } from "./io.js";

/**
 * Human subcommands call the very tools an agent calls, in process (Kernel.callTool): the same
 * argument checks, handlers and errors as over MCP, without loading an MCP client.
 */
export async function callTool(
  kernel: Kernel,
  tool: string,
  plugin: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  if (!kernel.tools.some((t) => t.name === tool)) {
    throw new UserError(`the ${tool} tool is not enabled: add "${plugin}" to plugins`, 2);
  }
  // The CLI is a local client, as a stdio one is: it sees what the stdio plugin's identity may.
  return kernel.callTool(tool, args, { identity: kernel.resolveOptional(TOKENS.LocalCaller)?.identity });
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/**
 * Print a tool's answer: with --json its structured content, else `render` of it (or its text);
 * errors go to stderr.
 */
function print(io: CliIo, result: CallToolResult, json: boolean, render?: (structured: any) => string): number {
  if (result.isError) {
    io.stderr.write(`skills-kernel: ${textOf(result).replace(/\s*\n\s*/g, " ")}\n`);
    return 1;
  }
  const structured = result.structuredContent;
  const out =
    json && structured
      ? JSON.stringify(structured, null, 2)
      : render && structured
        ? render(structured)
        : textOf(result);
  io.stdout.write(out.endsWith("\n") ? out : `${out}\n`);
  return 0;
}

export async function listCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  // The whole catalog in one answer: the tool's pages are for agents, who pay for every token.
  // names-only stays one id per line for scripts; an unavailable source is on stderr already.
  const result = await callTool(kernel, "list_skills", "list-skills", { format: args.format, limit: MAX_PAGE_SIZE });
  const failed = everySourceFailed(kernel);
  if (!result.isError && failed) {
    // Nothing loaded is a failure, not an empty catalog: a script must not read it as "no skills".
    io.stderr.write(`skills-kernel: no skill source could be loaded, so nothing is listed; looked in ${failed}\n`);
    return 1;
  }
  // names-only prints ids only: an old copy served (a remote that could not be asked) is said here.
  const stale = ((result.structuredContent as SkillList | undefined)?.unavailable_sources ?? []).filter(
    (u) => u.state === "stale",
  );
  if (args.format === "names-only")
    for (const u of stale) io.stderr.write(`skills-kernel: ${describeUnavailable(u)}\n`);
  // An empty catalog keeps the tool's own "No skills found in …" text, which says where it looked.
  return print(
    io,
    result,
    false,
    args.format === "names-only"
      ? (list: SkillList) => (list.total === 0 ? textOf(result) : list.skills.map((s) => s.id).join("\n"))
      : undefined,
  );
}

/** "name (where); …" of the sources when there is at least one and none of them loaded, else undefined. */
function everySourceFailed(kernel: Kernel): string | undefined {
  const status = kernel.catalog.status();
  if (status.length === 0 || status.some((s) => s.state !== "failed")) return undefined;
  return kernel.catalog.sources.map((s) => `${s.name} (${s.description})`).join("; ");
}

interface SearchAnswer {
  results: { id: string; description: string; source: string; score: number; match_quality: string }[];
}

export async function searchCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  const result = await callTool(kernel, "search_skills", "search-skills", {
    query: args.positionals.join(" "),
    ...(args.limit ? { limit: args.limit } : {}),
  });
  return print(io, result, args.json, (answer: SearchAnswer) =>
    answer.results.length === 0
      ? "No skill matches."
      : answer.results
          .map((r, i) => `${i + 1}. ${r.id}  (${r.source}, score ${r.score}, ${r.match_quality})\n   ${r.description}`)
          .join("\n"),
  );
}

interface ReadAnswer {
  content: string;
  files: string[];
  omitted_files?: number;
}

export async function readCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  const result = await callTool(kernel, "read_skill", "read-skill", { skill_name: args.positionals[0] });
  return print(io, result, args.json, (answer: ReadAnswer) => {
    const more = answer.omitted_files ? [`... and ${answer.omitted_files} more`] : [];
    const files = answer.files.length > 0 ? ["", "Files:", ...answer.files.map((f) => `  ${f}`), ...more] : [];
    return [answer.content.trimEnd(), ...files].join("\n");
  });
}

export async function cacheStatsCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  return print(io, await callTool(kernel, "get_cache_stats", "cache-stats", {}), args.json, renderAnswer);
}

/** `skills-kernel tools`: what the config's plugins register, as an agent's tools/list would show it. */
export async function toolsCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  if (args.json) {
    const tools = kernel.tools.map(({ name, title, description }) => ({
      name,
      ...(title !== undefined && { title }),
      description,
    }));
    io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(0, ...kernel.tools.map((tool) => tool.name.length));
  // The first sentence: the whole description is what --json is for.
  for (const tool of kernel.tools)
    io.stdout.write(`${tool.name.padEnd(width)}  ${/^[^\n]*?[.!?](?=\s|$)|^[^\n]*/.exec(tool.description)![0]}\n`);
  if (kernel.tools.length === 0) io.stderr.write("skills-kernel: the config's plugins register no tools\n");
  return 0;
}

/**
 * `skills-kernel call TOOL --args JSON`: one call through Kernel.callTool, so a plugin author sees
 * what an agent would get: its structured content as JSON when it has some, else its text.
 */
export async function callCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  const name = args.positionals[0]!;
  if (!kernel.tools.some((tool) => tool.name === name)) {
    throw new UserError(
      `no tool named "${name}" in this config; skills-kernel tools lists them: ${kernel.tools.map((t) => t.name).join(", ") || "none"}`,
      2,
    );
  }
  let input: unknown = {};
  if (args.toolArgs !== undefined) {
    try {
      input = JSON.parse(args.toolArgs);
    } catch (error) {
      throw new UserError(`--args must be a JSON object: ${(error as Error).message.split("\n")[0]}`, 2);
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new UserError('--args must be a JSON object, like \'{"query": "pdf"}\'', 2);
  const result = await kernel.callTool(name, input as Record<string, unknown>, {
    identity: kernel.resolveOptional(TOKENS.LocalCaller)?.identity,
  });
  return print(io, result, true);
}
