import { PassThrough } from "node:stream";
import type { CliIo, CliOutput } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

/** What one in-process run of the CLI wrote and returned; `exits` are the codes it asked to exit with. */
export interface InProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly exits: readonly number[];
}

export interface InProcessOptions {
  /** Default: the test process's (the repository's root, where vitest runs). */
  readonly cwd?: string;
  /** The whole environment the CLI sees (the test process's is never passed on). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Pretend stdout, stderr and stdin are a terminal. */
  readonly tty?: boolean;
}

/** A stream that keeps what is written to it. */
function collector(tty: boolean): CliOutput & { text(): string } {
  const stream = new PassThrough();
  let text = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return Object.assign(stream, { isTTY: tty, text: () => text });
}

/** An io for `main`, its output kept and its exits recorded, not performed. */
export function testIo(options: InProcessOptions = {}) {
  const stdout = collector(options.tty === true);
  const stderr = collector(options.tty === true);
  const stdin = Object.assign(new PassThrough(), { isTTY: options.tty === true });
  stdin.end();
  const exits: number[] = [];
  const io: CliIo = {
    stdout,
    stderr,
    stdin,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    exit: (code) => void exits.push(code),
  };
  return { io, stdout, stderr, exits };
}

/** Runs the CLI's `main` in this process, as src/cli.ts runs it in its own. */
export async function runMain(argv: readonly string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const { io, stdout, stderr, exits } = testIo(options);
  const code = await main(argv, io);
  // A PassThrough hands written chunks on at the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text(), exits };
}
