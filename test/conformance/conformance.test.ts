import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE as SUITE, NODE_24 } from "../helpers/runtimes.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

// The suite needs Node 22 or newer (it imports fs.globSync): it runs on Node 24 from the test
// runtimes, whatever Node runs the tests.
const BASELINE = fileURLToPath(new URL("./baseline.yml", import.meta.url));
const CONFIG = fileURLToPath(new URL("./conformance.config.json", import.meta.url));

/** The scenarios the server must pass whatever the baseline says: MCP over HTTP itself. */
const REQUIRED = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "resources-read-text",
  "resources-templates-read",
  "logging-set-level",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];

/**
 * Stateless, the same scenarios but for what needs a stream: nothing can follow a request's
 * answer, so a tool's log messages and progress, and GET streams, are not there.
 */
const REQUIRED_STATELESS = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-error",
  "resources-list",
  "resources-read-text",
  "resources-templates-read",
  "logging-set-level",
  "dns-rebinding-protection",
];

function runSuite(url: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_24, [SUITE, "server", "--url", url, "--expected-failures", BASELINE], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the official MCP conformance suite against the HTTP server (bundle on Node)", () => {
  let server: HttpServerProcess;
  let results: string;
  beforeAll(async () => {
    // The config loads a fixture plugin from a module path.
    server = await startHttpServer(["--config", CONFIG], { env: { SKILLS_KERNEL_TRUST_CONFIG: "1" } });
    results = mkdtempSync(join(tmpdir(), "sk-conformance-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (results) rmSync(results, { recursive: true, force: true });
  });

  it("passes every scenario that applies; the rest fail only as the baseline says", { timeout: 300_000 }, async () => {
    const { code, output } = await runSuite(server.mcpUrl.href, results);
    const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
    for (const scenario of REQUIRED) expect(summary, output).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    // Exit 0 means no unexpected failure and no stale baseline entry.
    expect(code, output).toBe(0);
  });
});

describe("the official MCP conformance suite against the stateless HTTP server (bundle on Node)", () => {
  let server: HttpServerProcess;
  let results: string;
  beforeAll(async () => {
    server = await startHttpServer(["--config", CONFIG, "--stateless"], { env: { SKILLS_KERNEL_TRUST_CONFIG: "1" } });
    results = mkdtempSync(join(tmpdir(), "sk-conformance-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (results) rmSync(results, { recursive: true, force: true });
  });

  it("passes every scenario that needs no stream", { timeout: 300_000 }, async () => {
    const { output } = await runSuite(server.mcpUrl.href, results);
    const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
    for (const scenario of REQUIRED_STATELESS) expect(summary, output).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  });
});
