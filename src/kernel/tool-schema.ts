import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { KernelTool, ToolDefinition, ToolSchema } from "./types.js";

/** Whether `value` validates (Standard Schema) and gives its JSON Schema (Standard JSON Schema). */
function describesItself(value: unknown): value is StandardSchemaWithJSON {
  const standard = (value as { "~standard"?: { validate?: unknown; jsonSchema?: { input?: unknown } } } | null)?.["~standard"];
  return typeof standard?.validate === "function" && typeof standard.jsonSchema?.input === "function";
}

/**
 * The schema the SDK gets for a tool's input or output: a self-describing schema as it is, a
 * record of zod 4 fields wrapped in `z.object`. Anything else (a zod 3 schema, which cannot give
 * its JSON Schema) is refused with a message for the plugin's author.
 */
export function toolSchema(tool: string, which: "inputSchema" | "outputSchema", schema: ToolSchema): StandardSchemaWithJSON {
  if (describesItself(schema)) return schema;
  if (typeof schema === "object" && schema !== null && !("~standard" in schema)) {
    const fields = Object.entries(schema);
    const stray = fields.find(([, field]) => !describesItself(field));
    if (!stray) return z.object(schema as z.ZodRawShape);
    throw new TypeError(`tool ${tool}: ${which}.${stray[0]} is not a zod 4 schema (zod 3 and other schemas without a JSON Schema are not accepted)`);
  }
  throw new TypeError(
    `tool ${tool}: ${which} must be a Standard Schema with JSON Schema (zod 4, valibot's toStandardJsonSchema, arktype) or a record of zod 4 fields; zod 3 schemas are not accepted`,
  );
}

/** The tool as the kernel keeps it: both schemas in the form the SDK takes. */
export function checkedTool(tool: ToolDefinition): KernelTool {
  if (typeof tool?.name !== "string" || typeof tool.handler !== "function") throw new TypeError("a tool needs a name and a handler function");
  return {
    ...tool,
    inputSchema: tool.inputSchema === undefined ? undefined : toolSchema(tool.name, "inputSchema", tool.inputSchema),
    outputSchema: tool.outputSchema === undefined ? undefined : toolSchema(tool.name, "outputSchema", tool.outputSchema),
  } as KernelTool;
}
