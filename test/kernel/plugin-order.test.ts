import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/kernel/errors.js";
import { orderPlugins } from "../../src/kernel/plugin-order.js";

const entry = (name: string, dependsOn?: string[]) => ({ plugin: { name, dependsOn } });
const names = (entries: { plugin: { name: string } }[]) => entries.map((e) => e.plugin.name);

describe("orderPlugins", () => {
  it("keeps config order when nothing depends on anything", () => {
    expect(names(orderPlugins([entry("a"), entry("b"), entry("c")], "cfg"))).toEqual(["a", "b", "c"]);
  });

  it("puts dependencies first and otherwise keeps config order", () => {
    const ordered = orderPlugins([entry("tools", ["cache", "fs"]), entry("fs"), entry("other"), entry("cache")], "cfg");
    expect(names(ordered)).toEqual(["fs", "other", "cache", "tools"]);
  });

  it("handles chains", () => {
    expect(names(orderPlugins([entry("c", ["b"]), entry("b", ["a"]), entry("a")], "cfg"))).toEqual(["a", "b", "c"]);
  });

  it("names the plugin and the missing dependency", () => {
    expect(() => orderPlugins([entry("search", ["ranker"])], "plugins.config.ts")).toThrow(
      new ConfigError(
        'plugins.config.ts: plugin "search" depends on "ranker", which is not in the config; add it to plugins',
        "SK_ERR_DEPENDENCY_MISSING",
      ),
    );
  });

  it("names the plugins of a cycle", () => {
    const run = () => orderPlugins([entry("x"), entry("a", ["b"]), entry("b", ["c"]), entry("c", ["a"])], "cfg");
    expect(run).toThrow(ConfigError);
    expect(run).toThrow("cfg: plugins depend on each other in a cycle: a -> b -> c -> a");
  });

  it("reports a self-dependency as a cycle", () => {
    expect(() => orderPlugins([entry("a", ["a"])], "cfg")).toThrow("cycle: a -> a");
  });
});
