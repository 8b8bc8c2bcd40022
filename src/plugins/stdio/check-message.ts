import { ClientNotificationSchema, ClientRequestSchema, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

// What JSON-RPC 2.0 asks of a server that gets a broken message: an error reply. When the id
// cannot be read, JSON-RPC says id null and MCP's schema says no id; the reply leaves it out, so
// that MCP clients (the SDK's included) can parse it. The SDK drops such messages, so a client waits for its own timeout;
// and a request whose params do not fit its method reaches the SDK's handler, which answers
// -32603 with a multi-line zod dump. Both are answered here, in one line.

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export interface Refusal {
  readonly code: number;
  readonly id: string | number | null;
  /** One line, for the reply and the log. */
  readonly message: string;
  /** False for a broken notification or response: JSON-RPC never answers those. */
  readonly reply?: false;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

type MethodSchema = z.ZodType<unknown>;

/** Each MCP method a client may call or notify, with the schema of its message. */
const METHOD_SCHEMAS: ReadonlyMap<string, MethodSchema> = new Map(
  [...ClientRequestSchema.options, ...ClientNotificationSchema.options].map((schema) => [
    (schema.shape.method as { value: string }).value,
    schema as unknown as MethodSchema,
  ]),
);

/**
 * The message on one line (newline excluded), or why it is refused; undefined for a blank line,
 * which is skipped.
 */
export function checkMessage(line: Buffer): { message: JSONRPCMessage } | { refusal: Refusal } | undefined {
  let text: string;
  try {
    text = strictUtf8.decode(line);
  } catch {
    return { refusal: { code: PARSE_ERROR, id: null, message: "Parse error: the message is not valid UTF-8" } };
  }
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { refusal: { code: PARSE_ERROR, id: null, message: `Parse error: ${oneLine((error as Error).message)}` } };
  }
  if (Array.isArray(value)) {
    return { refusal: { code: INVALID_REQUEST, id: null, message: "Invalid Request: batches are not part of MCP; send one message per line" } };
  }
  const id = idOf(value);
  const envelope = JSONRPCMessageSchema.safeParse(value);
  if (!envelope.success) {
    const answerable = !isRecord(value) || !("result" in value || "error" in value) || "method" in value;
    return {
      refusal: {
        code: INVALID_REQUEST,
        id,
        message: `Invalid Request: ${describeIssue(envelope.error)}`,
        ...(answerable ? {} : { reply: false as const }),
      },
    };
  }
  const message = envelope.data;
  if ("method" in message) {
    const schema = METHOD_SCHEMAS.get(message.method);
    const checked = schema?.safeParse(message);
    if (checked && !checked.success) {
      const isRequest = "id" in message;
      return {
        refusal: {
          code: INVALID_PARAMS,
          id: isRequest ? (message as { id: string | number }).id : null,
          message: `Invalid params for ${oneLine(message.method).slice(0, 64)}: ${describeIssue(checked.error)}`,
          ...(isRequest ? {} : { reply: false as const }),
        },
      };
    }
  }
  return { message };
}

export function errorReply(refusal: Refusal) {
  return { jsonrpc: "2.0" as const, ...(refusal.id === null ? {} : { id: refusal.id }), error: { code: refusal.code, message: refusal.message } };
}

/** The id of a message that has a usable one (a string or an integer), else null. */
function idOf(value: unknown): string | number | null {
  if (!isRecord(value)) return null;
  const { id } = value;
  if (typeof id === "string" && id.length <= 256) return id;
  if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  return null;
}

/** The first issue of a zod error, as "params.name: expected string". */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "the message does not fit the JSON-RPC 2.0 envelope";
  // A union (request, notification, response…) says little at its root: its closest branch says more.
  const inner = issue.code === "invalid_union" ? closestBranch(issue) : undefined;
  const chosen = inner ?? issue;
  const path = chosen.path.length > 0 ? `${chosen.path.map(String).join(".")}: ` : "";
  return oneLine(`${path}${chosen.message}`).slice(0, 300);
}

function closestBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue | undefined {
  const errors = (issue as { errors?: z.core.$ZodIssue[][] }).errors ?? [];
  const shortest = [...errors].sort((a, b) => a.length - b.length)[0];
  return shortest?.[0];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
