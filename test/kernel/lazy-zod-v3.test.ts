import { expect, it } from "vitest";
import * as z3 from "zod/v3";
import { zodToJsonSchema as realZodToJsonSchema } from "zod-to-json-schema";
import { object, zodToJsonSchema } from "../../src/kernel/lazy-zod-v3.js";

it("builds and converts zod 3 schemas like the modules it stands in for, loading them on first use", () => {
  const shape = { word: z3.string().min(2), n: z3.number().optional() };
  const schema = object(shape);
  expect(schema.safeParse({ word: "hi", n: 3 })).toEqual({ success: true, data: { word: "hi", n: 3 } });
  expect(schema.safeParse({ word: "h" }).success).toBe(false);
  expect(zodToJsonSchema(schema, { strictUnions: true, pipeStrategy: "input" })).toEqual(
    realZodToJsonSchema(z3.object(shape), { strictUnions: true, pipeStrategy: "input" }),
  );
});
