import { specTypeSchemas, type SpecTypeName } from "@modelcontextprotocol/server";

/** JSON-RPC's code for params that do not fit the method. */
export const INVALID_PARAMS = -32602;

/**
 * Each spec method a client may call, with the SDK's type of its request. The SDK checks a request
 * against the same schema, but answers a misfit -32603 with the whole validation report (many
 * lines of JSON); this gives the first problem, on one line, for a -32602.
 */
const REQUEST_TYPES: Readonly<Record<string, SpecTypeName>> = {
  ping: "PingRequest",
  initialize: "InitializeRequest",
  "server/discover": "DiscoverRequest",
  "completion/complete": "CompleteRequest",
  "logging/setLevel": "SetLevelRequest",
  "prompts/get": "GetPromptRequest",
  "prompts/list": "ListPromptsRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
  "resources/subscribe": "SubscribeRequest",
  "resources/unsubscribe": "UnsubscribeRequest",
  "subscriptions/listen": "SubscriptionsListenRequest",
  "tools/call": "CallToolRequest",
  "tools/list": "ListToolsRequest",
};

/** Why a JSON-RPC request's params do not fit its method, in one line; undefined when they do or the method is not a spec one. */
export function paramsProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || !("method" in message) || typeof message.method !== "string")
    return undefined;
  const type = Object.hasOwn(REQUEST_TYPES, message.method) ? REQUEST_TYPES[message.method] : undefined;
  if (type === undefined) return undefined;
  const checked = specTypeSchemas[type]["~standard"].validate(message);
  if (!checked.issues) return undefined;
  const [issue] = checked.issues;
  const path = (issue?.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
  const reason = `${path === "" ? "" : `${path}: `}${issue?.message ?? "does not fit the method"}`;
  return `Invalid params for ${message.method}: ${reason.replace(/\s+/g, " ").slice(0, 300)}`;
}
