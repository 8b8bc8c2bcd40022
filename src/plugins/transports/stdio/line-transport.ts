import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import { checkMessage, errorReply, type Refusal } from "./check-message.js";

const NEWLINE = 0x0a;

export interface LineTransportOptions {
  /** The longest message read, in bytes, newline excluded; a longer one is refused and skipped. */
  readonly maxMessageBytes: number;
  readonly logger: Logger;
}

/**
 * MCP's stdio framing (one JSON-RPC message per line) over any pair of streams, handed to the
 * SDK's serveStdio in place of its StdioServerTransport, which re-copies its whole buffer on every
 * chunk (quadratic in a message's size), ends the session on a message over 10 MB, and drops
 * malformed messages without the reply JSON-RPC asks for (docs/dependencies.md).
 *
 * Here a line is kept as the list of chunks that hold it and joined once, when its newline
 * arrives, so reading is linear in its size. Every broken message gets its JSON-RPC error reply
 * (-32700 for what is not JSON, -32600 for what is not a JSON-RPC message or is too long, -32602
 * for a request whose params do not fit its method) and one line in the log; the session goes on.
 * Writes wait for "drain" through a single listener however many replies are queued. A closed
 * output (EPIPE: the client went away) closes the transport.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #options: LineTransportOptions;
  /** The chunks of the line read so far (none while skipping an oversized one). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** True while skipping the rest of a line that is over the limit. */
  #skipping = false;
  #drained: Promise<void> | undefined;
  #resolveDrained: (() => void) | undefined;
  #closed = false;
  #resolveClosed!: () => void;
  /** Settles once the transport has closed, whoever closed it (stdin's end, EPIPE, the SDK). */
  readonly closed = new Promise<void>((resolve) => (this.#resolveClosed = resolve));

  constructor(input: Readable, output: Writable, options: LineTransportOptions) {
    this.#input = input;
    this.#output = output;
    this.#options = options;
  }

  async start(): Promise<void> {
    this.#input.on("data", this.#onData);
    this.#input.on("end", this.#onEnd);
    this.#input.on("error", this.#onInputError);
    this.#output.on("error", this.#onOutputError);
    this.#output.on("drain", this.#onDrain);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off("data", this.#onData);
    this.#input.off("end", this.#onEnd);
    this.#input.off("error", this.#onInputError);
    this.#output.off("drain", this.#onDrain);
    // The output's error listener stays: a write still in flight may fail after the close.
    // Paused, stdin no longer holds the process open.
    this.#input.pause();
    this.#pending = [];
    this.#onDrain();
    this.onclose?.();
    this.#resolveClosed();
  }

  async #write(text: string): Promise<void> {
    // Once closed (the client is gone), replies have nowhere to go.
    if (this.#closed || this.#output.destroyed) return;
    if (this.#output.write(text)) return;
    this.#drained ??= new Promise<void>((resolve) => (this.#resolveDrained = resolve));
    await this.#drained;
  }

  readonly #onDrain = (): void => {
    const resolve = this.#resolveDrained;
    this.#drained = undefined;
    this.#resolveDrained = undefined;
    resolve?.();
  };

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      this.#take(bytes.subarray(start, end));
      this.#endLine();
      start = end + 1;
      if (this.#closed) return;
    }
    if (start < bytes.length) this.#take(bytes.subarray(start));
  };

  /** Adds part of the current line, or starts skipping it once it is over the limit. */
  #take(part: Buffer): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#pendingBytes + part.length > this.#options.maxMessageBytes) {
      this.#skipping = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes += part.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.#refuse({
        code: -32600,
        id: null,
        message: `Invalid Request: the message is longer than ${this.#options.maxMessageBytes} bytes, the stdio transport's maxMessageBytes`,
      });
      return;
    }
    const line = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    const checked = checkMessage(line);
    if (checked === undefined) return;
    if ("refusal" in checked) this.#refuse(checked.refusal);
    else this.onmessage?.(checked.message);
  }

  #refuse(refusal: Refusal): void {
    this.#options.logger.warn(`stdio: refused a message: ${refusal.message}`);
    if (refusal.reply === false) return;
    this.#write(`${JSON.stringify(errorReply(refusal))}\n`).catch(() => {});
  }

  readonly #onEnd = (): void => {
    this.#options.logger.debug("stdin closed; stopping");
    void this.close();
  };

  readonly #onInputError = (error: Error): void => {
    this.onerror?.(error);
    void this.close();
  };

  readonly #onOutputError = (error: Error): void => {
    const code = (error as NodeJS.ErrnoException).code;
    // The client closed its end: nobody is left to answer.
    if (code === "EPIPE" || code === "ERR_STREAM_DESTROYED")
      this.#options.logger.debug(`stdout closed (${code}); stopping`);
    else this.#options.logger.error(`cannot write to stdout: ${errorMessage(error)}; stopping`);
    void this.close();
  };
}
