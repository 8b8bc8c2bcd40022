import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, it } from "vitest";

/**
 * server.json against the MCP Registry's own JSON Schema, revision 2025-12-11: the fixture is
 * modelcontextprotocol/registry's internal/validators/schemas/2025-12-11.json at commit
 * e361b5ff5a925b36a38eda0544bca8230a84558b (also published at the schema's $id). ajv comes from the
 * test runtimes (test/runtimes).
 */
const runtimes = createRequire(new URL("../runtimes/package.json", import.meta.url));
// The little of ajv's API used here (its types live in test/runtimes, out of tsc's reach).
interface Validator {
  (data: unknown): boolean;
  errors?: unknown;
}
interface AjvInstance {
  compile(schema: object): Validator;
}
const { Ajv } = runtimes("ajv") as { Ajv: new (options: object) => AjvInstance };
const addFormats = runtimes("ajv-formats") as (ajv: AjvInstance) => void;

const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));

it("server.json is valid against the registry's schema 2025-12-11", () => {
  const schema = json("test/fixtures/mcp-registry/server.schema.json");
  const server = json("server.json");
  expect(server.$schema).toBe(schema.$id);
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  expect(validate(server), JSON.stringify(validate.errors, null, 2)).toBe(true);
});

it("the schema refuses what the registry refuses: a version range, a long description", () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(json("test/fixtures/mcp-registry/server.schema.json"));
  const server = json("server.json");
  expect(validate({ ...server, description: "x".repeat(101) })).toBe(false);
  expect(validate({ ...server, packages: [{ ...server.packages[0], version: "latest" }] })).toBe(false);
});
