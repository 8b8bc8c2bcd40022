import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import type { KernelTool } from "../../../kernel/types.js";
import { TOKENS } from "../../../tokens.js";
import type { SkillUsage } from "../../../skills/usage/report.js";
import { json, restError, type HttpOptions, type RouteCaller } from "../../transports/http/index.js";
import { callTool } from "./call-tool.js";
import { openApiDocument } from "./openapi.js";
import { usageAnswer } from "./usage.js";

const optionsSchema = z
  .object({
    /** Where the API is mounted, beside /mcp. */
    prefix: z
      .string()
      .regex(/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/, "prefix must look like /v1")
      .default("/v1"),
  })
  .strict();

/**
 * A read-only REST API beside MCP for clients that do not speak it. Every endpoint runs the MCP
 * tool it stands for, so the tools' rules and caps hold here too and a tool the config leaves out
 * is withheld here as well. Needs the http transport, which serves it.
 */
export default definePlugin({
  name: "rest-api",
  provides: [TOKENS.HttpRoute],
  consumes: [
    { token: TOKENS.HttpOptions, optional: true, fromStart: true },
    // GET /v1/usage: the usage plugin's figures, for operators; every caller's misses are in them.
    { token: TOKENS.Usage, optional: true, fromStart: true, wholeCatalog: true },
  ],
  options: optionsSchema,
  needsTrust: { plugin: "it answers REST requests on the HTTP listener" },
  setup(ctx, { prefix }) {
    let tools: ReadonlyMap<string, KernelTool> = new Map();
    let bearer = false;
    let http: HttpOptions | undefined;
    let usage: SkillUsage | undefined;
    let openApi: string | undefined;
    ctx.contribute(TOKENS.HttpRoute, {
      prefix,
      async handle(request, path, caller) {
        if (request.method !== "GET" && request.method !== "HEAD")
          return restError(405, "the REST API is read-only: use GET", { allow: "GET, HEAD" });
        const rest = path.slice(prefix.length);
        if (rest === "/usage") return usageAnswer(new URL(request.url).searchParams, caller, usage, http, ctx.logger);
        if (rest === "/openapi.json")
          return json(200, JSON.parse((openApi ??= JSON.stringify(openApiDocument(prefix, tools, bearer)))));
        const response = await route(rest, new URL(request.url).searchParams, request.signal, tools, caller);
        // What one caller may see is for no shared cache.
        if (caller.identity !== undefined || caller.catalog.restricted)
          response.headers.set("cache-control", "private");
        return response;
      },
    });
    return {
      start(started) {
        tools = new Map(started.resolveAll(TOKENS.Tool).map((tool) => [tool.name, tool]));
        // The http plugin's token, once every plugin is set up: the document says whether it is required.
        http = started.resolveOptional(TOKENS.HttpOptions);
        bearer = http?.authToken !== undefined || http?.oauth !== undefined;
        usage = started.resolveOptional(TOKENS.Usage);
      },
    };
  },
});

async function route(
  path: string,
  query: URLSearchParams,
  signal: AbortSignal,
  tools: ReadonlyMap<string, KernelTool>,
  caller: RouteCaller,
): Promise<Response> {
  const { catalog } = caller;
  let segments: string[];
  try {
    segments = path.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return restError(400, "malformed percent-encoding in the path");
  }
  const run = async (name: string, input: Record<string, unknown>) => {
    const tool = tools.get(name);
    if (!tool) return restError(404, `this server does not offer ${name}, so neither does this endpoint`);
    const outcome = await callTool(tool, input, signal, caller);
    if (!outcome.ok) return restError(outcome.status, outcome.message);
    return json(200, outcome.value);
  };
  const [first, id, third, ...filePath] = segments;
  if (first !== "skills") return restError(404, `nothing at ${path}`);
  if (id === undefined || id === "") return run("list_skills", { format: "json" });
  if (id === "search" && third === undefined) {
    const limit = query.get("limit");
    return run("search_skills", {
      query: query.get("q") ?? "",
      ...(limit !== null && { limit: /^\d+$/.test(limit) ? Number(limit) : limit }),
      ...(query.has("source") && { source: query.get("source") }),
    });
  }
  // An unknown skill is a missing resource here, not a bad argument: 404, with the tools' suggestions.
  await catalog.ready();
  if (!catalog.get(id)) {
    try {
      catalog.resolve(id);
    } catch (error) {
      return restError(404, (error as Error).message);
    }
  }
  if (third === undefined)
    return run("read_skill", { skill_name: id, ...(query.has("source") && { source: query.get("source") }) });
  if (third !== "files" || filePath.length === 0 || filePath.some((part) => part === ""))
    return restError(404, `nothing at ${path}`);
  const tool = tools.get("fetch_skill_files");
  if (!tool) return restError(404, "this server does not offer fetch_skill_files, so neither does this endpoint");
  const outcome = await callTool(tool, { skill_name: id, file_paths: [filePath.join("/")] }, signal, caller);
  if (!outcome.ok) return restError(outcome.status, outcome.message);
  const [file] = outcome.value.files as Record<string, unknown>[];
  // A path that is not one of the skill's files comes back as an error entry: for REST, not found.
  if (!file || "error" in file) return restError(404, String(file?.error ?? "no such file"));
  return json(200, file);
}
