import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { RawStdioServer } from "../helpers/raw-stdio.js";

// What a 2026-07-28 client sends on the wire, frame by frame, to the bundled server's stdio.

const servers: RawStdioServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.child.kill("SIGKILL");
});

const envelope = {
  [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
  [CLIENT_INFO_META_KEY]: { name: "raw", version: "0" },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};

describe.each(Object.keys(RUNTIMES) as Runtime[])("a 2026-07-28 opening on %s", (runtime) => {
  it("answers server/discover with serverInfo and caching hints, checks each request's _meta, and refuses a 2025 initialize after", async () => {
    const server = new RawStdioServer(undefined, runtime);
    servers.push(server);
    server.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } });
    const discovered = (await server.reply(1)).result;
    expect(discovered.supportedVersions).toContain("2026-07-28");
    expect(discovered._meta["io.modelcontextprotocol/serverInfo"]).toMatchObject({
      name: "skills-kernel",
      title: "Skills Kernel",
      websiteUrl: expect.stringMatching(/^https:\/\//),
    });
    expect(
      discovered._meta["io.modelcontextprotocol/serverInfo"].icons.map((icon: { mimeType: string }) => icon.mimeType),
    ).toEqual(["image/svg+xml", "image/png"]);
    // logging is deprecated at 2026-07-28: not declared.
    expect(discovered.capabilities).not.toHaveProperty("logging");
    expect(discovered.capabilities.extensions).toEqual({ "io.modelcontextprotocol/skills": { directoryRead: true } });
    expect(discovered).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });

    // Per-request _meta: a malformed envelope is -32602 naming the key, and the connection goes on.
    server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { ...envelope, [CLIENT_CAPABILITIES_META_KEY]: 5 } },
    });
    expect((await server.reply(2)).error).toMatchObject({
      code: -32602,
      data: { envelope: { key: CLIENT_CAPABILITIES_META_KEY } },
    });
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope } });
    expect((await server.reply(3)).result.tools.map((tool: { name: string }) => tool.name)).toContain("search_skills");

    // Once modern, a 2025 handshake is refused with the revisions this connection speaks.
    server.send({
      jsonrpc: "2.0",
      id: 4,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    expect((await server.reply(4)).error).toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28"], requested: "2025-11-25" },
    });

    // Nothing was logged to the client: no request asked for a level.
    expect(server.frames.filter((frame) => frame.method === "notifications/message")).toEqual([]);
    expect(server.garbage).toEqual([]);
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
