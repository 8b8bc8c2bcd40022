import { describe, expect, it } from "vitest";
import { EMBEDDED_DEFAULT_CONFIG } from "../../src/cli/default-config.js";
import { forInProcessUse, IN_PROCESS_COMMANDS } from "../../src/cli/in-process.js";
import { definePlugin } from "../../src/kernel/config.js";

/** A command that calls one tool in process boots without the built-ins that only add to MCP servers. */
describe("forInProcessUse", () => {
  it("names list, search and read, which serve nothing", () => {
    expect([...IN_PROCESS_COMMANDS].sort()).toEqual(["list", "read", "search"]);
  });

  it("drops the server-only built-ins from the embedded default, and keeps every other entry as it is", () => {
    const plugins = forInProcessUse(EMBEDDED_DEFAULT_CONFIG).plugins!;
    const names = plugins.map((entry) => (typeof entry === "string" ? entry : (entry as [string, unknown])[0]));
    for (const gone of ["skill-resources", "skills-extension", "skill-prompts", "catalog-summary"])
      expect(names, gone).not.toContain(gone);
    expect(names).toEqual(
      expect.arrayContaining([
        "fs",
        "list-skills",
        "search-skills",
        "read-skill",
        "cache-stats",
        "usage",
        "install-skill",
      ]),
    );
    // The fs entry with its options is the same object.
    expect(plugins[0]).toBe(EMBEDDED_DEFAULT_CONFIG.plugins![0]);
  });

  it("looks into presets and [name, options] pairs, leaves plugin objects, and drops their startup overrides", () => {
    const inline = definePlugin({ name: "skill-prompts-alike", setup() {} });
    const config = forInProcessUse({
      transport: "stdio",
      plugins: [["skill-prompts", { maxPrompts: 3 }], inline, [["catalog-summary", "list-skills"], "read-skill"]],
      startup: { setupTimeoutMs: 50, plugins: { "catalog-summary": { setupTimeoutMs: 10 }, "list-skills": {} } },
    });
    expect(config.plugins).toEqual([inline, [["list-skills"], "read-skill"]]);
    expect(config.startup).toEqual({ setupTimeoutMs: 50, plugins: { "list-skills": {} } });
    expect(config.transport).toBe("stdio");
  });
});
