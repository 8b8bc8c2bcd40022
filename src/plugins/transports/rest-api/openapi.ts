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

const idParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The skill's id as search and list give it (its name, or source:name), percent-encoded.",
  schema: { type: "string" },
};

/**
 * OpenAPI 3.1 for the REST API mounted at `prefix`; each operation answers as the tool it names.
 * `bearer`: the server requires its bearer token (`authToken`), so every operation does.
 */
export function openApiDocument(prefix: string, tools: ReadonlyMap<string, KernelTool>, bearer: boolean): Record<string, unknown> {
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
          responses: { 200: ok("list_skills", "The skills"), 404: error, ...denied },
        },
      },
      "/skills/search": {
        get: {
          operationId: "searchSkills",
          summary: "The skills that fit a task, best first (the search_skills tool)",
          parameters: [
            { name: "q", in: "query", required: true, description: "What the task is about, or a skill's name", schema: { type: "string" } },
            { name: "limit", in: "query", description: "How many results, 1 to 50 (default 5)", schema: { type: "integer", minimum: 1, maximum: 50 } },
            { name: "source", in: "query", description: "Only skills of this source", schema: { type: "string" } },
          ],
          responses: { 200: ok("search_skills", "The best matches"), 400: error, 404: error, ...denied },
        },
      },
      "/skills/{id}": {
        get: {
          operationId: "readSkill",
          summary: "A skill's SKILL.md, frontmatter and file list (the read_skill tool)",
          parameters: [idParameter],
          responses: { 200: ok("read_skill", "The skill"), 400: error, 404: error, ...denied },
        },
      },
      "/skills/{id}/files/{path}": {
        get: {
          operationId: "fetchSkillFile",
          summary: "One file of a skill's folder, as read_skill lists it (the fetch_skill_files tool)",
          parameters: [
            idParameter,
            { name: "path", in: "path", required: true, description: "The file's path in the skill folder, e.g. references/guide.md", schema: { type: "string" } },
          ],
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
        bearerAuth: { type: "http", scheme: "bearer", description: "The server's auth token (--auth-token or SKILLS_KERNEL_AUTH_TOKEN), when it has one" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: { error: { type: "object", required: ["status", "message"], properties: { status: { type: "integer" }, message: { type: "string" } } } },
        },
      },
    },
  };
}
