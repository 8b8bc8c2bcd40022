import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT, RUNTIMES, type Runtime } from "./cli.js";

export const EXAMPLE_SKILLS = join(REPO_ROOT, "examples", "skills");

/** A JSON-RPC message as it came off the server's stdout. */
export type Frame = Record<string, any>;

/**
 * The bundled server as a raw child process: frames go in as bytes, and every line of stdout must
 * be a JSON-RPC message. For probing what the SDK client would never send.
 */
export class RawStdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly frames: Frame[] = [];
  /** Lines of stdout that were not JSON: there must be none. */
  readonly garbage: string[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #buffer = "";
  #waiters: (() => void)[] = [];

  constructor(args: readonly string[] = ["--skills-dir", EXAMPLE_SKILLS], runtime: Runtime = "node") {
    const [command, ...prefix] = RUNTIMES[runtime];
    this.child = spawn(command, [...prefix, ...args], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.#buffer += chunk;
      let newline: number;
      while ((newline = this.#buffer.indexOf("\n")) !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        try {
          this.frames.push(JSON.parse(line) as Frame);
        } catch {
          this.garbage.push(line);
        }
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    // A test that writes after the server has gone gets EPIPE on this side: not the test's concern.
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
  }

  write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** The first frame (from now on or already received) that matches. */
  async waitFor(match: (frame: Frame) => boolean, timeoutMs = 20_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame; stderr: ${this.stderr.slice(-500)}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  reply(id: unknown): Promise<Frame> {
    return this.waitFor((frame) => frame.id === id && ("result" in frame || "error" in frame));
  }

  async initialize(): Promise<void> {
    this.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    await this.reply("init");
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  /** Closes stdin and waits for the exit. */
  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.exited;
  }
}
