import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { KernelTool, ToolDefinition, ToolSchema } from "./types.js";

/** Whether `value` validates (Standard Schema) and gives its JSON Schema (Standard JSON Schema). */
function describesItself(value: unknown): value is StandardSchemaWithJSON {
  const standard = (value as { "~standard"?: { validate?: unknown; jsonSchema?: { input?: unknown } } } | null)?.[
    "~standard"
  ];
  return typeof standard?.validate === "function" && typeof standard.jsonSchema?.input === "function";
}

/**
 * The schema the SDK gets for a tool's input or output: a self-describing schema as it is, a
 * record of zod 4 fields wrapped in `z.object`. Anything else (a zod 3 schema, which cannot give
 * its JSON Schema) is refused with a message for the plugin's author.
 */
export function toolSchema(
  tool: string,
  which: "inputSchema" | "outputSchema",
  schema: ToolSchema,
): StandardSchemaWithJSON {
  if (describesItself(schema)) return schema;
  if (typeof schema === "object" && schema !== null && !("~standard" in schema)) {
    const fields = Object.entries(schema);
    const stray = fields.find(([, field]) => !describesItself(field));
    if (!stray) return z.object(schema as z.ZodRawShape);
    throw new TypeError(
      `tool ${tool}: ${which}.${stray[0]} is not a zod 4 schema (zod 3 and other schemas without a JSON Schema are not accepted)`,
    );
  }
  throw new TypeError(
    `tool ${tool}: ${which} must be a Standard Schema with JSON Schema (zod 4, valibot's toStandardJsonSchema, arktype) or a record of zod 4 fields; zod 3 schemas are not accepted`,
  );
}

/**
 * The same schema, its JSON Schema made once per target and direction: the SDK converts a tool's
 * schemas on each McpServer it is registered on, and over HTTP every 2026-07-28 request gets a
 * server of its own. The SDK copies what it is given, never changes it.
 */
function withJsonSchemaOnce(schema: StandardSchemaWithJSON): StandardSchemaWithJSON {
  const standard = schema["~standard"];
  const made = new Map<string, Record<string, unknown>>();
  const once =
    (io: "input" | "output") =>
    (options: Parameters<typeof standard.jsonSchema.input>[0]): Record<string, unknown> => {
      const key = `${io} ${options.target}`;
      let json = made.get(key);
      if (!json) made.set(key, (json = standard.jsonSchema[io](options)));
      return json;
    };
  return { "~standard": { ...standard, jsonSchema: { input: once("input"), output: once("output") } } };
}

/** The tool as the kernel keeps it: both schemas in the form the SDK takes. */
export function checkedTool(tool: ToolDefinition): KernelTool {
  if (typeof tool?.name !== "string" || typeof tool.handler !== "function")
    throw new TypeError("a tool needs a name and a handler function");
  const schema = (which: "inputSchema" | "outputSchema") => {
    const given = tool[which];
    return given === undefined ? undefined : withJsonSchemaOnce(toolSchema(tool.name, which, given));
  };
  return { ...tool, inputSchema: schema("inputSchema"), outputSchema: schema("outputSchema") } as KernelTool;
}
