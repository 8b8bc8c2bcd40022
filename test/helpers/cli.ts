import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BUN, DENO, NODE_24 } from "./runtimes.js";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test builds it first)`);

/**
 * How each runtime runs the bundled CLI. `node` is the Node running the tests (20.19 here and in
 * CI); Node 24, Bun and Deno come from the test/runtimes package (./runtimes.ts).
 */
export const RUNTIMES = {
  node: [process.execPath, CLI],
  node24: [NODE_24, CLI],
  bun: [BUN, CLI],
  deno: [DENO, "run", "-A", "--quiet", CLI],
} as const satisfies Record<string, readonly string[]>;
export type Runtime = keyof typeof RUNTIMES;

/** The command and arguments that run `script` (not the CLI) on `runtime`, with the runtime's own flags. */
export function scriptOn(runtime: Runtime, script: string, ...args: string[]): [string, string[]] {
  const [command, ...rest] = RUNTIMES[runtime];
  return [command, [...rest.slice(0, -1), script, ...args]];
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI to completion (killed after `timeoutMs`, so a hang fails the test instead of stalling it). */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; runtime?: Runtime; input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const [command, ...prefix] = RUNTIMES[options.runtime ?? "node"];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** What the SDK gives a server it starts, plus the suite's scratch cache folder (test/scratch-cache.setup.ts). */
export function sdkEnvironment(): Record<string, string> {
  return {
    ...getDefaultEnvironment(),
    ...(process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {}),
  };
}

/** Start the real CLI as an MCP server and connect the official SDK client to it over stdio. */
export async function connectCli(
  args: readonly string[],
  options: {
    cwd?: string;
    runtime?: Runtime;
    env?: Record<string, string>;
    client?: ConstructorParameters<typeof Client>[1];
  } = {},
) {
  const [command, ...prefix] = RUNTIMES[options.runtime ?? "node"];
  const transport = new StdioClientTransport({
    command,
    args: [...prefix, ...args],
    cwd: options.cwd ?? REPO_ROOT,
    stderr: "pipe",
    // The SDK passes a few variables (HOME, PATH...) unless given the whole environment.
    env: options.env ? { ...(process.env as Record<string, string>), ...options.env } : sdkEnvironment(),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  // The client's default is the 2025-11-25 handshake; `client.versionNegotiation` pins 2026-07-28.
  const client = new Client({ name: "skills-kernel-e2e", version: "0" }, options.client);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}
