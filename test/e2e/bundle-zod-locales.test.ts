import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RUNTIMES, scriptOn, type Runtime } from "../helpers/cli.js";

const SCRIPT = fileURLToPath(new URL("../fixtures/bundle/zod-locales.mjs", import.meta.url));

// The bundle keeps only zod's `en` locale; the others are loaded from node_modules on first use
// (scripts/build.mjs). Through the exported `z`, a plugin must not see the difference.
describe.each(Object.keys(RUNTIMES) as Runtime[])("the bundle's z.locales on %s", (runtime) => {
  it("names every zod locale, and a non-English one translates as zod's own does", () => {
    const result = spawnSync(...scriptOn(runtime, SCRIPT), { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    const schema = z.object({ a: z.string() });
    z.config(z.locales.fr());
    const french = schema.safeParse({ a: 1 }).error!.issues[0]!.message;
    z.config(z.locales.en());
    const english = schema.safeParse({ a: 1 }).error!.issues[0]!.message;
    expect(french).not.toBe(english);
    expect(JSON.parse(result.stdout)).toEqual({ names: Object.keys(z.locales), english, french, back: english });
  });
});
