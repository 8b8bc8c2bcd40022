import { expect, it } from "vitest";
import { AjvJsonSchemaValidator } from "../../src/kernel/lazy-ajv-provider.js";

it("validates like the SDK's Ajv provider, loading it on first use", () => {
  const validate = new AjvJsonSchemaValidator().getValidator<{ n: number }>({
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
  });
  expect(validate({ n: 1 })).toMatchObject({ valid: true, data: { n: 1 } });
  expect(validate({ n: "one" })).toMatchObject({ valid: false });
});
