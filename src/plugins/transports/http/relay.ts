import type { JSONRPCMessage, McpServer, ServerNotifier, Transport } from "@modelcontextprotocol/server";

const HANDSHAKE_ID = "list-changed-relay";

/**
 * Carries the list_changed notifications of the kernel's server to `subscriptions/listen` streams.
 * A 2026-07-28 request is served by an instance that lives for that request alone, so none is
 * there to notice a skill change later; this one instance stays connected to nothing but this
 * transport, and whatever its plugins announce (tools, prompts, resources) goes to the handler's
 * notifier, which sends it on every open stream that asked for it. It introduces itself with an
 * initialize, as a client would, since plugins announce nothing to a server no client has met.
 */
export class ListChangedRelay implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  #initialized?: () => void;

  private constructor(private readonly notify: ServerNotifier) {}

  static async connect(server: McpServer, notify: ServerNotifier): Promise<ListChangedRelay> {
    const relay = new ListChangedRelay(notify);
    await server.connect(relay);
    await new Promise<void>((resolve) => {
      relay.#initialized = resolve;
      relay.onmessage?.({
        jsonrpc: "2.0",
        id: HANDSHAKE_ID,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "skills-kernel-list-changed-relay", version: "1" },
        },
      });
    });
    relay.onmessage?.({ jsonrpc: "2.0", method: "notifications/initialized" });
    return relay;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!("method" in message)) {
      if ("id" in message && message.id === HANDSHAKE_ID) this.#initialized?.();
      return;
    }
    if ("id" in message) return;
    if (message.method === "notifications/tools/list_changed") this.notify.toolsChanged();
    else if (message.method === "notifications/prompts/list_changed") this.notify.promptsChanged();
    else if (message.method === "notifications/resources/list_changed") this.notify.resourcesChanged();
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
