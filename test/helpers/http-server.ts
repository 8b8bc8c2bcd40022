import { spawn, type ChildProcess } from "node:child_process";
import { REPO_ROOT, RUNTIMES, type Runtime } from "./cli.js";

export interface HttpServerProcess {
  readonly child: ChildProcess;
  /** The server's origin, e.g. http://127.0.0.1:41234. */
  readonly origin: string;
  /** Where MCP is served. */
  readonly mcpUrl: URL;
  readonly port: number;
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it has not exited within `ms`. */
  stop(ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Start the bundled CLI serving HTTP on a free loopback port (`--port 0` unless `args` names one)
 * and wait until it says where it listens.
 */
export async function startHttpServer(
  args: readonly string[],
  options: { runtime?: Runtime; cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<HttpServerProcess> {
  const [command, ...prefix] = RUNTIMES[options.runtime ?? "node"];
  const portArgs = args.includes("--port") ? [] : ["--port", "0"];
  const child = spawn(command, [...prefix, "serve", "--transport", "http", ...portArgs, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const listening = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${options.timeoutMs ?? 20_000} ms; stderr:\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening; stderr:\n${stderr}`));
    });
  });
  const mcpUrl = new URL(listening);
  return {
    child,
    origin: mcpUrl.origin,
    mcpUrl,
    port: Number(mcpUrl.port),
    stderr: () => stderr,
    exited,
    async stop(ms = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), ms);
        const result = await exited;
        clearTimeout(timer);
        return result;
      }
      return exited;
    },
  };
}
