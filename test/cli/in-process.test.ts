import { describe, expect, it } from "vitest";
import { EMBEDDED_DEFAULT_CONFIG } from "../../src/cli/default-config.js";
import { forInProcessUse, IN_PROCESS_COMMANDS } from "../../src/cli/in-process.js";
import { definePlugin } from "../../src/kernel/config.js";

/**
 * A command that serves nothing boots without the built-ins that only add to MCP servers, and
 * without the built-in tools it does not call.
 */
describe("forInProcessUse", () => {
  it("names list, search, read and export, which serve nothing, with the plugins of the tools each calls", () => {
    expect([...IN_PROCESS_COMMANDS].sort()).toEqual([
      ["export", []],
      ["list", ["list-skills"]],
      ["read", ["read-skill"]],
      ["search", ["search-skills"]],
    ]);
  });

  const names = (plugins: readonly unknown[]) =>
    plugins.map((entry) => (typeof entry === "string" ? entry : (entry as [string, unknown])[0]));

  it.each([
    ["list-skills", ["search-skills", "read-skill"]],
    ["search-skills", ["list-skills", "read-skill"]],
    ["read-skill", ["list-skills", "search-skills"]],
  ])("keeps %s of the embedded default's tools, the sources and usage, and every entry as it is", (tool, others) => {
    const plugins = forInProcessUse(EMBEDDED_DEFAULT_CONFIG, [tool]).plugins!;
    expect(names(plugins)).toEqual(["fs", tool, "usage"]);
    for (const gone of [...others, "install-skill", "validate-skill", "fetch-skill-files", "cache-stats"])
      expect(names(plugins), gone).not.toContain(gone);
    // The fs entry with its options is the same object.
    expect(plugins[0]).toBe(EMBEDDED_DEFAULT_CONFIG.plugins![0]);
  });

  it("keeps none of the embedded default's tools for a command that calls none (export)", () => {
    expect(names(forInProcessUse(EMBEDDED_DEFAULT_CONFIG, []).plugins!)).toEqual(["fs", "usage"]);
  });

  it("looks into presets and [name, options] pairs, leaves plugin objects, and drops their startup overrides", () => {
    const inline = definePlugin({ name: "skill-prompts-alike", setup() {} });
    const config = forInProcessUse(
      {
        transport: "stdio",
        plugins: [["skill-prompts", { maxPrompts: 3 }], inline, [["catalog-summary", "list-skills"], "read-skill"]],
        startup: {
          setupTimeoutMs: 50,
          plugins: { "catalog-summary": { setupTimeoutMs: 10 }, "list-skills": {}, "read-skill": {} },
        },
      },
      ["list-skills"],
    );
    expect(config.plugins).toEqual([inline, [["list-skills"]]]);
    expect(config.startup).toEqual({ setupTimeoutMs: 50, plugins: { "list-skills": {} } });
    expect(config.transport).toBe("stdio");
  });
});
