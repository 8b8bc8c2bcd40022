import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scriptOn, type Runtime } from "../helpers/cli.js";
import { connectHttp, rawInitialize } from "../helpers/http-client.js";

const example = (name: string) => fileURLToPath(new URL(`../../examples/http/${name}`, import.meta.url));

/** Run an example app, wait for the address it prints, and hand it to `use`; then SIGTERM it. */
async function withExample(
  runtime: Runtime,
  file: string,
  use: (origin: string) => Promise<void>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(...scriptOn(runtime, example(file)), { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`example exited (${code}) before listening: ${stderr}`)));
    });
    await use(origin);
  } finally {
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
  }
  return { code: await exited, stderr };
}

/** What every example must do: serve MCP under /skills and its own page beside it. */
async function checkMounted(origin: string): Promise<void> {
  const { client } = await connectHttp(new URL("/skills/mcp", origin));
  const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes", limit: 1 } });
  expect(found.structuredContent).toMatchObject({ results: [{ id: "changelog-curator" }] });
  await client.close();
  const ready = await fetch(new URL("/skills/readyz", origin));
  expect(await ready.json()).toMatchObject({ status: "ready" });
  expect(await (await fetch(origin)).text()).toBe("the app's own page\n");
  // The app's Host checks hold when embedded too.
  expect((await rawInitialize(new URL("/skills/mcp", origin), { host: "evil.example.com" })).status).toBe(403);
}

// The examples are documentation that runs.
describe("examples/http", () => {
  it.each(["node", "deno"] as const)("node-http.mjs mounts skills in a node:http app on %s", async (runtime) => {
    const { code, stderr } = await withExample(runtime, "node-http.mjs", checkMounted);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("hono.mjs mounts skills in a Hono app on Node", async () => {
    const { code, stderr } = await withExample("node", "hono.mjs", checkMounted);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("deno.mjs serves the kernel's fetch with Deno.serve", async () => {
    const { code, stderr } = await withExample("deno", "deno.mjs", async (origin) => {
      const { client } = await connectHttp(new URL("/mcp", origin));
      const found = await client.callTool({ name: "search_skills", arguments: { query: "release notes", limit: 1 } });
      expect(found.structuredContent).toMatchObject({ results: [{ id: "changelog-curator" }] });
      await client.close();
      expect(await (await fetch(new URL("/readyz", origin))).json()).toMatchObject({ status: "ready" });
    });
    // No warning about request.signal: the repository's deno.json opts in to no-legacy-abort.
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("bun.mjs mounts skills in a Bun.serve app", async () => {
    const { code, stderr } = await withExample("bun", "bun.mjs", checkMounted);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
