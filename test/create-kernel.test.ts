import { describe, expect, it } from "vitest";
import { createKernel } from "../src/create-kernel.js";
import { definePlugin } from "../src/kernel/config.js";
import { createLogger } from "../src/kernel/logger.js";
import { callerView, WholeCatalog } from "../src/skills/catalog/catalog.js";
import { INTERNAL_TOKENS } from "../src/internal-tokens.js";
import { TOKENS } from "../src/tokens.js";

const boot = (plugins: unknown[]) =>
  createKernel({ config: { plugins: plugins as never }, logger: createLogger("silent") });

describe("createKernel's defaults (catalog, stdio, kernel-boot)", () => {
  it("boots each when the config provides none of their services", async () => {
    const kernel = await boot(["list-skills"]);
    try {
      expect(kernel.plugins).toEqual(expect.arrayContaining(["catalog", "stdio", "kernel-boot", "list-skills"]));
      expect(kernel.catalog).toBe(kernel.resolve(TOKENS.WholeCatalog));
      expect(kernel.resolve(TOKENS.LocalCaller)).toEqual({ identity: undefined });
    } finally {
      await kernel.close();
    }
  });

  it("boots the built-in stdio once, with its options, when the config lists it by name", async () => {
    const identity = { subject: "ada" };
    const kernel = await boot([["stdio", { identity }]]);
    try {
      expect(kernel.plugins.filter((name) => name === "stdio")).toHaveLength(1);
      expect(kernel.resolve(TOKENS.LocalCaller).identity).toMatchObject(identity);
    } finally {
      await kernel.close();
    }
  });

  it("keeps stdio beside another transport the config lists", async () => {
    const kernel = await boot(["http"]);
    try {
      expect(kernel.plugins).toEqual(expect.arrayContaining(["stdio", "http"]));
    } finally {
      await kernel.close();
    }
  });

  it("gives way to a config's own catalog, whatever its name", async () => {
    const own = new WholeCatalog(createLogger("silent"));
    const catalog = definePlugin({
      name: "my-catalog",
      provides: [TOKENS.WholeCatalog, INTERNAL_TOKENS.CallerCatalog],
      setup(ctx) {
        ctx.provide(TOKENS.WholeCatalog, own);
        ctx.provide(INTERNAL_TOKENS.CallerCatalog, (identity) => callerView(own, identity));
      },
    });
    const kernel = await boot([catalog]);
    try {
      expect(kernel.plugins).not.toContain("catalog");
      expect(kernel.catalog).toBe(own);
    } finally {
      await kernel.close();
    }
  });
});
