import { createRequire } from "node:module";
import type * as ZodV3 from "zod/v3";
import type * as ZodToJsonSchema from "zod-to-json-schema";

/**
 * Stands in, in the bundle, for the `zod/v3` and `zod-to-json-schema` imports of the MCP SDK's
 * zod-compat modules (scripts/build.mjs swaps it in). The SDK needs them only for zod 3 schemas,
 * which the kernel never makes (its `z` is zod 4), yet parsing them cost every start (about 80 KB
 * minified, docs/benchmarks.md). A plugin's zod 3 schema still works: the real modules are loaded
 * from node_modules the first time one is met.
 */
const requireHere = createRequire(import.meta.url);

export function object(...args: Parameters<typeof ZodV3.object>): ReturnType<typeof ZodV3.object> {
  return (requireHere("zod/v3") as typeof ZodV3).object(...args);
}

export function zodToJsonSchema(...args: Parameters<typeof ZodToJsonSchema.zodToJsonSchema>): ReturnType<typeof ZodToJsonSchema.zodToJsonSchema> {
  // zod-to-json-schema is the SDK's dependency, not ours: resolve it from the SDK.
  const fromSdk = createRequire(requireHere.resolve("@modelcontextprotocol/sdk/server/mcp.js"));
  return (fromSdk("zod-to-json-schema") as typeof ZodToJsonSchema).zodToJsonSchema(...args);
}
