import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/server";
import { INVALID_PARAMS, paramsProblem } from "./params.js";

/** JSON-RPC's code for a request the server will not carry out as sent. */
const INVALID_REQUEST = -32600;

/** One HTTP request's answers: what is left of its budget, and its requests not yet handed on. */
interface Budget {
  remaining: number;
  /** Requests of a batch wait here while another of the batch is being answered. */
  readonly waiting: { message: JSONRPCMessage & { id: RequestId }; extra: MessageExtraInfo | undefined }[];
  answering: boolean;
}

/**
 * The SDK's 2025-11-25 transport with two rules of this server's in front of its McpServer:
 * - a request whose params do not fit its method is answered -32602 with the reason on one line,
 *   and never reaches the server (whose own answer would be -32603 and a validation dump);
 * - the answers to one HTTP request (a batch) share `maxAnswerBytes`: an answer that would go past
 *   what is left is replaced by an error saying so, so a batch cannot make the server hold or send
 *   many times what one request may;
 * - the requests of a batch are handed on one at a time, the next once the one before is answered,
 *   and once the budget is spent the rest get that error without being worked on: a batch costs
 *   the server what one request at a time costs.
 * Messages of one POST arrive with the same `request` object, which keys its budget.
 */
export class LimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  readonly #budgets = new WeakMap<Request, Budget>();
  /** The budget of each request still to be answered. */
  readonly #pending = new Map<RequestId, Budget>();

  constructor(
    readonly inner: Transport,
    private readonly maxAnswerBytes: number,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.#receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = "id" in message && !("method" in message) ? message.id : undefined;
    const budget = id === undefined ? undefined : this.#pending.get(id);
    if (id === undefined || !budget) return this.inner.send(message, options);
    this.#pending.delete(id);
    const size = Buffer.byteLength(JSON.stringify(message));
    let sent: Promise<void>;
    if (size <= budget.remaining) {
      budget.remaining -= size;
      sent = this.inner.send(message, options);
    } else {
      budget.remaining = 0;
      sent = this.#refuse(id);
    }
    budget.answering = false;
    this.#next(budget);
    return sent;
  }

  #refuse(id: RequestId): Promise<void> {
    const error = {
      code: INVALID_REQUEST,
      message: `the answers to this HTTP request would be over ${this.maxAnswerBytes} bytes; ask for less in one request (fewer messages in a batch)`,
    };
    return this.inner.send({ jsonrpc: "2.0", id, error }, { relatedRequestId: id });
  }

  /** Hand on the batch's next request, or refuse the rest once its budget is spent. */
  #next(budget: Budget): void {
    while (!budget.answering) {
      const next = budget.waiting.shift();
      if (!next) return;
      if (budget.remaining === 0) {
        void this.#refuse(next.message.id);
        continue;
      }
      budget.answering = true;
      this.#pending.set(next.message.id, budget);
      this.onmessage?.(next.message, next.extra);
    }
  }

  #receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    // A cancelled request gets no answer: its batch goes on to the next.
    if ("method" in message && message.method === "notifications/cancelled")
      this.#cancel((message.params as { requestId?: RequestId } | undefined)?.requestId);
    if ("method" in message && "id" in message) {
      const problem = paramsProblem(message);
      if (problem !== undefined) {
        void this.inner.send(
          { jsonrpc: "2.0", id: message.id, error: { code: INVALID_PARAMS, message: problem } },
          { relatedRequestId: message.id },
        );
        return;
      }
      const request = extra?.request;
      if (request) {
        let budget = this.#budgets.get(request);
        if (!budget)
          this.#budgets.set(request, (budget = { remaining: this.maxAnswerBytes, waiting: [], answering: false }));
        budget.waiting.push({ message, extra });
        this.#next(budget);
        return;
      }
    }
    this.onmessage?.(message, extra);
  }

  #cancel(id: RequestId | undefined): void {
    const budget = id === undefined ? undefined : this.#pending.get(id);
    if (!budget) return;
    this.#pending.delete(id!);
    budget.answering = false;
    this.#next(budget);
  }
}
