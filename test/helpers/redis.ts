import { spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";
import { freePort } from "./free-port.js";
import { waitFor } from "./wait.js";

/** Whether a Redis on `port` answers PING, asked over a raw socket. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let answer = "";
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
      if (answer.includes("\r\n")) socket.end();
    });
    socket.on("close", () => resolve(answer.startsWith("+PONG")));
    socket.on("error", () => resolve(false));
  });
}

/**
 * A redis-server of the test's own, on a free port, as a child process: nothing persisted, so
 * a restart comes back empty. `kill` is SIGKILL, a crash; `start` brings it back on the same port.
 */
export class TestRedis {
  #child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<TestRedis> {
    return TestRedis.startOn(await freePort());
  }

  static async startOn(port: number): Promise<TestRedis> {
    const redis = new TestRedis(port);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
      {
        stdio: "ignore",
      },
    );
    this.#child = child;
    await waitFor(`redis-server on port ${this.port}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${this.port} exited with ${child.exitCode}`);
      return pings(this.port);
    });
  }

  /** SIGKILL, and wait until the port is closed. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /** Freeze it: connections stay open, nothing answers (a hung server, not a dead one). */
  pause(): void {
    this.#child?.kill("SIGSTOP");
  }

  resume(): void {
    this.#child?.kill("SIGCONT");
  }
}
