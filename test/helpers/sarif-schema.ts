import { readFileSync } from "node:fs";
import AjvModule from "ajv-draft-04";
import addFormatsModule from "ajv-formats";

// Both are CommonJS: under NodeNext their export is the default export's default.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

/** SARIF 2.1.0's JSON Schema (draft-04), as OASIS publishes it: test/fixtures/sarif/SOURCE.md. */
const schema = JSON.parse(
  readFileSync(new URL("../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8"),
) as object;

// Formats are checked (`uri`, `uri-reference`, `date-time`…): without ajv-formats, ajv skips them.
const ajv = new Ajv({ strict: false, logger: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The schema's complaints about `log`, one per line; "" when it is valid SARIF 2.1.0. */
export function sarifSchemaErrors(log: unknown): string {
  if (validate(log)) return "";
  return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`).join("\n");
}
