import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { spawnSync } from "node:child_process";

const EXAMPLE = fileURLToPath(new URL("../../examples/embed.mjs", import.meta.url));

// The embedding example is documentation that runs: it must keep working on every runtime.
describe.each(Object.keys(RUNTIMES) as Runtime[])("examples/embed.mjs on %s", (runtime) => {
  it("boots a kernel in-process and walks search then read", () => {
    const [command, ...rest] = RUNTIMES[runtime];
    // RUNTIMES runs the CLI: keep the runtime and its flags, swap the script.
    const args = [...rest.slice(0, -1), EXAMPLE, "release notes"];
    const result = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^changelog-curator \((exact|strong|partial|weak)\): 0 file\(s\) to fetch\n$/);
    expect(result.status).toBe(0);
  });
});
