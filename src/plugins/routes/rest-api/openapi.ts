import type { KernelTool } from "../../../kernel/types.js";
import { VERSION } from "../../../version.js";

/** The JSON Schema of a tool's structured answer, so the document follows the tools as they change. */
function outputOf(tools: ReadonlyMap<string, KernelTool>, name: string): Record<string, unknown> {
  const schema = tools.get(name)?.outputSchema;
  return schema ? schema["~standard"].jsonSchema.output({ target: "draft-2020-12" }) : {};
}

const error = {
  description: "An error: `{ error: { status, message } }`",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};

/** The JSON Schema of a tool's input, as MCP's tools/list gives it. */
export function inputOf(tools: ReadonlyMap<string, KernelTool>, name: string): JsonSchema {
  const schema = tools.get(name)?.inputSchema;
  return schema ? (schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as JsonSchema) : {};
}

/**
 * Each endpoint's parameters and the tool input field each one carries, as route() in index.ts
 * maps them: their schemas, descriptions and whether they are required are the tool's own, so the
 * document cannot drift from the tools.
 */
export const PARAMETERS: Readonly<
  Record<
    string,
    { readonly tool: string; readonly path?: Record<string, string>; readonly query?: Record<string, string> }
  >
> = {
  "/skills": { tool: "list_skills" },
  "/skills/search": { tool: "search_skills", query: { q: "query", limit: "limit", source: "source" } },
  "/skills/{id}": { tool: "read_skill", path: { id: "skill_name" }, query: { source: "source" } },
  // One path of file_paths: its items' schema.
  "/skills/{id}/files/{path}": { tool: "fetch_skill_files", path: { id: "skill_name", path: "file_paths" } },
};

/** The OpenAPI parameters of one endpoint, from its tool's input schema. */
function parametersOf(tools: ReadonlyMap<string, KernelTool>, endpoint: string): Record<string, unknown>[] {
  const { tool, path = {}, query = {} } = PARAMETERS[endpoint]!;
  const input = inputOf(tools, tool);
  const parameter = (name: string, field: string, where: "path" | "query") => {
    const { description, ...property } = input.properties?.[field] ?? {};
    const schema = property.type === "array" ? (property.items as Record<string, unknown>) : property;
    return {
      name,
      in: where,
      required: where === "path" || (input.required ?? []).includes(field),
      ...(typeof description === "string" && { description }),
      schema,
    };
  };
  return [
    ...Object.entries(path).map(([name, field]) => parameter(name, field, "path")),
    ...Object.entries(query).map(([name, field]) => parameter(name, field, "query")),
  ];
}

/**
 * OpenAPI 3.1 for the REST API mounted at `prefix`; each operation answers as the tool it names.
 * `bearer`: the server requires its bearer token (`authToken`), so every operation does.
 */
export function openApiDocument(
  prefix: string,
  tools: ReadonlyMap<string, KernelTool>,
  bearer: boolean,
): Record<string, unknown> {
  // Without the token every operation answers 401, with a WWW-Authenticate challenge.
  const denied = bearer ? { 401: error } : {};
  const ok = (tool: string, description: string) => ({
    description,
    content: { "application/json": { schema: outputOf(tools, tool) } },
  });
  return {
    openapi: "3.1.0",
    info: {
      title: "skills-kernel REST API",
      version: VERSION,
      description:
        "Read-only access to the Agent Skills this server serves, for clients that do not speak MCP. Each " +
        "endpoint answers as the MCP tool it names, with the same rules and limits; an endpoint whose tool the " +
        "server's config leaves out answers 404.",
    },
    servers: [{ url: prefix }],
    security: bearer ? [{ bearerAuth: [] }] : [],
    paths: {
      "/skills": {
        get: {
          operationId: "listSkills",
          summary: "Every skill (the list_skills tool, json format)",
          parameters: parametersOf(tools, "/skills"),
          responses: { 200: ok("list_skills", "The skills"), 404: error, ...denied },
        },
      },
      "/skills/search": {
        get: {
          operationId: "searchSkills",
          summary: "The skills that fit a task, best first (the search_skills tool)",
          parameters: parametersOf(tools, "/skills/search"),
          responses: { 200: ok("search_skills", "The best matches"), 400: error, 404: error, ...denied },
        },
      },
      "/skills/{id}": {
        get: {
          operationId: "readSkill",
          summary: "A skill's SKILL.md, frontmatter and file list (the read_skill tool)",
          parameters: parametersOf(tools, "/skills/{id}"),
          responses: { 200: ok("read_skill", "The skill"), 400: error, 404: error, ...denied },
        },
      },
      "/skills/{id}/files/{path}": {
        get: {
          operationId: "fetchSkillFile",
          summary: "One file of a skill's folder, as read_skill lists it (the fetch_skill_files tool)",
          parameters: parametersOf(tools, "/skills/{id}/files/{path}"),
          responses: {
            200: {
              description: "The file: text as utf8, anything else as base64; `truncated` when cut at the size cap",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["path", "content", "encoding", "size"],
                    properties: {
                      path: { type: "string" },
                      content: { type: "string" },
                      encoding: { enum: ["utf8", "base64"] },
                      size: { type: "integer" },
                      truncated: { type: "boolean" },
                    },
                  },
                },
              },
            },
            400: error,
            404: error,
            ...denied,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "The server's auth token (--auth-token or SKILLS_KERNEL_AUTH_TOKEN), when it has one",
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["status", "message"],
              properties: { status: { type: "integer" }, message: { type: "string" } },
            },
          },
        },
      },
    },
  };
}
