import type { Writable } from "node:stream";

/** A stream the CLI writes to; `isTTY` decides progress lines, prompts and the banner. */
export type CliOutput = Writable & { readonly isTTY?: boolean };

/**
 * What the CLI takes from its process, passed in so `main` runs in a test as it runs in one:
 * src/cli.ts passes the process's own.
 */
export interface CliIo {
  readonly stdout: CliOutput;
  /** One line per failure, and every log record. */
  readonly stderr: CliOutput;
  /** Read only by `add`'s agent prompt, at a terminal. */
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths on the command line start from. */
  readonly cwd: string;
  /**
   * Ends the run at once with `code`: a crash, a closed pipe, a plugin holding a finished server
   * open. The process's exits; a test's records the code.
   */
  readonly exit: (code: number) => void;
}

/** The running process's streams, environment, working directory and exit. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    exit: (code) => process.exit(code),
  };
}
