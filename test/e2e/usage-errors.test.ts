import { createServer, type Server } from "node:net";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult, type Runtime } from "../helpers/cli.js";

/**
 * Mistakes a user meets in the first hour, through the bundle: each is one line on stderr saying
 * what is wrong and what to do, with the exit code its kind has (2 usage, 1 the operation failed).
 */
let work: string;
beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "sk-usage-errors-")));
  await writeFile(join(work, "package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function expectOneLine(result: CliResult, code: number, pattern: RegExp) {
  expect(result.stdout).toBe("");
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(result.code, result.stderr).toBe(code);
}

describe("a port another program holds", () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it.each<Runtime>(["node", "bun", "deno"])("is named, with how to choose another, exit 2 (%s)", async (runtime) => {
    const result = await runCli(["--skills-dir", work, "--transport", "http", "--port", String(port)], {
      cwd: work,
      runtime,
    });
    expectOneLine(
      result,
      2,
      new RegExp(
        `^skills-kernel: port ${port} on 127\\.0\\.0\\.1 is taken by another program: choose another with --port N \\(--port 0 picks a free one\\)`,
      ),
    );
  });
});

describe("a config with a syntax error says where", () => {
  it.each<Runtime>(["node", "bun", "deno"])("in an .mjs config (%s)", async (runtime) => {
    await writeFile(join(work, "broken.config.mjs"), 'export default {\n  plugins: ["fs",\n  oops here\n};\n');
    const result = await runCli(["list", "--config", "broken.config.mjs"], { cwd: work, runtime });
    expectOneLine(result, 2, /^skills-kernel: broken\.config\.mjs: cannot load: syntax error at 3:8: /);
  });
});
