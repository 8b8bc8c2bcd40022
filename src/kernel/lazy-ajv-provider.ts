import { createRequire } from "node:module";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

/**
 * Stands in for the MCP SDK's Ajv provider in the bundle (scripts/build.mjs swaps it in). The SDK
 * server needs a JSON Schema validator only to check a client's elicitation answers, which no
 * built-in tool asks for, yet importing Ajv costs every start about 15 ms (docs/benchmarks.md).
 * So the real provider is loaded from node_modules the first time a schema needs validating.
 */
export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  #real: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#real ??= new (createRequire(import.meta.url)("@modelcontextprotocol/sdk/validation/ajv") as {
      AjvJsonSchemaValidator: new () => jsonSchemaValidator;
    }).AjvJsonSchemaValidator();
    return this.#real.getValidator<T>(schema);
  }
}
