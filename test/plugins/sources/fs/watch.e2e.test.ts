// The fs source's watcher in a process of its own under each runtime (test/plugins/sources/fs/watch-probe.ts).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BUN, DENO } from "../../../helpers/runtimes.js";
import { tempDir } from "./files.js";

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const PROBE = join(REPO_ROOT, "test/plugins/sources/fs/watch-probe.ts");

const run = promisify(execFile);
const RUNTIMES = {
  // Node 20 does not run TypeScript by itself.
  node: [process.execPath, "--import", "tsx"],
  bun: [BUN],
  // The sources import each other as ./x.js, which Deno maps to ./x.ts only with --sloppy-imports.
  deno: [DENO, "run", "-A", "--quiet", "--sloppy-imports"],
} as const;

describe.each(Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[])("under %s", (runtime) => {
  it.each(["watch", "poll"])(
    "%s: signals an add, an edit, a nested add and a removal, then exits by itself",
    async (mode) => {
      const root = await tempDir();
      const [command, ...args] = RUNTIMES[runtime];
      // The timeout kills a process that a leftover handle keeps alive.
      const { stdout } = await run(command, [...args, PROBE, root, mode], { cwd: REPO_ROOT, timeout: 30_000 });
      const report = JSON.parse(stdout) as { results: Record<string, string>; baseline: number; after: number };
      expect(report.results).toEqual({ start: "ok", add: "ok", edit: "ok", nested: "ok", remove: "ok" });
      expect(report.after).toBe(report.baseline);
    },
  );
});
