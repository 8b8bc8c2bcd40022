import { describe, expect, it } from "vitest";
import { z } from "zod";
import { definePlugin } from "../../src/kernel/config.js";
import { ConfigError } from "../../src/kernel/errors.js";
import { validatePluginOptions } from "../../src/kernel/plugin-options.js";

const plugin = definePlugin({
  name: "demo",
  options: z.object({
    roots: z.array(z.object({ path: z.string() })).min(1),
    depth: z.number().int().positive().default(6),
  }),
  setup() {},
});

describe("validatePluginOptions", () => {
  it("returns parsed options with defaults applied", async () => {
    expect(await validatePluginOptions(plugin, { roots: [{ path: "a" }] }, "cfg")).toEqual({
      roots: [{ path: "a" }],
      depth: 6,
    });
  });

  it("names plugin and option path", async () => {
    const error = (await validatePluginOptions(plugin, { roots: [{ path: 3 }] }, "plugins.config.ts").then(
      () => undefined,
      (e: unknown) => e,
    )) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^plugins\.config\.ts: plugin "demo": option roots\[0\]\.path: /);
  });

  it("lists every problem on one line", async () => {
    const error = (await validatePluginOptions(plugin, { roots: [], depth: -1 }, "cfg").then(
      () => undefined,
      (e: unknown) => e,
    )) as ConfigError;
    expect(error.message).toContain("option roots:");
    expect(error.message).toContain("option depth:");
    expect(error.message).not.toContain("\n");
  });

  it("validates missing options as an empty object", async () => {
    const error = (await validatePluginOptions(plugin, undefined, "cfg").then(
      () => undefined,
      (e: unknown) => e,
    )) as ConfigError;
    expect(error.message).toContain("option roots:");
  });

  it("refuses options for a plugin without a schema", async () => {
    const bare = definePlugin({ name: "bare", setup() {} });
    await expect(validatePluginOptions(bare, undefined, "cfg")).resolves.toBeUndefined();
    await expect(validatePluginOptions(bare, { x: 1 }, "cfg")).rejects.toThrow('cfg: plugin "bare" takes no options');
  });
});
