import { specTypeSchemas, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { StandardSchemaV1 } from "@standard-schema/spec";

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

/**
 * Each MCP method a client may call or notify, with the name of the SDK's schema of its message.
 * Looked up by name when a message comes: the SDK builds its schemas on first use.
 */
const METHOD_SCHEMAS: ReadonlyMap<string, keyof typeof specTypeSchemas> = new Map([
  ["initialize", "InitializeRequest"],
  ["ping", "PingRequest"],
  ["server/discover", "DiscoverRequest"],
  ["subscriptions/listen", "SubscriptionsListenRequest"],
  ["tools/list", "ListToolsRequest"],
  ["tools/call", "CallToolRequest"],
  ["resources/list", "ListResourcesRequest"],
  ["resources/templates/list", "ListResourceTemplatesRequest"],
  ["resources/read", "ReadResourceRequest"],
  ["resources/subscribe", "SubscribeRequest"],
  ["resources/unsubscribe", "UnsubscribeRequest"],
  ["prompts/list", "ListPromptsRequest"],
  ["prompts/get", "GetPromptRequest"],
  ["completion/complete", "CompleteRequest"],
  ["logging/setLevel", "SetLevelRequest"],
  ["notifications/cancelled", "CancelledNotification"],
  ["notifications/initialized", "InitializedNotification"],
  ["notifications/progress", "ProgressNotification"],
  ["notifications/roots/list_changed", "RootsListChangedNotification"],
] as const);

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
    return {
      refusal: {
        code: INVALID_REQUEST,
        id: null,
        message: "Invalid Request: batches are not part of MCP; send one message per line",
      },
    };
  }
  const id = idOf(value);
  const envelope = specTypeSchemas.JSONRPCMessage["~standard"].validate(value);
  if (envelope.issues) {
    const answerable = !isRecord(value) || !("result" in value || "error" in value) || "method" in value;
    return {
      refusal: {
        code: INVALID_REQUEST,
        id,
        message: `Invalid Request: ${describeIssue(envelope.issues)}`,
        ...(answerable ? {} : { reply: false as const }),
      },
    };
  }
  const message = value as JSONRPCMessage;
  if ("method" in message) {
    const type = METHOD_SCHEMAS.get(message.method);
    const checked =
      type === undefined ? undefined : (specTypeSchemas[type] as StandardSchemaV1)["~standard"].validate(message);
    if (checked && !(checked instanceof Promise) && checked.issues) {
      const isRequest = "id" in message;
      return {
        refusal: {
          code: INVALID_PARAMS,
          id: isRequest ? (message as { id: string | number }).id : null,
          message: `Invalid params for ${oneLine(message.method).slice(0, 64)}: ${describeIssue(checked.issues)}`,
          ...(isRequest ? {} : { reply: false as const }),
        },
      };
    }
  }
  return { message };
}

export function errorReply(refusal: Refusal) {
  return {
    jsonrpc: "2.0" as const,
    ...(refusal.id === null ? {} : { id: refusal.id }),
    error: { code: refusal.code, message: refusal.message },
  };
}

/** The id of a message that has a usable one (a string or an integer), else null. */
function idOf(value: unknown): string | number | null {
  if (!isRecord(value)) return null;
  const { id } = value;
  if (typeof id === "string" && id.length <= 256) return id;
  if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  return null;
}

/** The first issue, as "params.name: expected string". */
function describeIssue(issues: readonly StandardSchemaV1.Issue[]): string {
  // A union (request, notification, response…) says little at its root: its closest branch says more.
  const first = issues[0] as (StandardSchemaV1.Issue & { errors?: StandardSchemaV1.Issue[][] }) | undefined;
  const closest = [...(first?.errors ?? [])].sort((a, b) => a.length - b.length)[0]?.[0];
  const issue = closest ? { ...closest, path: [...(first!.path ?? []), ...(closest.path ?? [])] } : first;
  if (!issue) return "the message does not fit the JSON-RPC 2.0 envelope";
  const path = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part));
  return oneLine(`${path.length > 0 ? `${path.join(".")}: ` : ""}${issue.message}`).slice(0, 300);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
