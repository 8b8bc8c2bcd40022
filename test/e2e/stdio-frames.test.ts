import { afterEach, describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { EXAMPLE_SKILLS, RawStdioServer } from "../helpers/raw-stdio.js";

// #14 items 5, 6, 9 (backpressure) and 10, against the bundled server on stdio.

const servers: RawStdioServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.child.kill("SIGKILL");
});

async function started(runtime: Runtime = "node"): Promise<RawStdioServer> {
  const server = new RawStdioServer(["--skills-dir", EXAMPLE_SKILLS], runtime);
  servers.push(server);
  await server.initialize();
  return server;
}

const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });

function refusedLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.includes("refused a message"));
}

describe.each(Object.keys(RUNTIMES) as Runtime[])("on %s", (runtime) => {
  // One server for every kind of broken message: each answer must come, and the session go on.
  it("answers each broken message as JSON-RPC says, logs it in one line, and keeps serving", async () => {
    const server = await started(runtime);
    // Not JSON: -32700, without an id (MCP's form of JSON-RPC's id null).
    server.write('{"jsonrpc":"2.0","id":1,"method":\n');
    const parse = await server.waitFor((frame) => frame.error?.code === -32700);
    expect(parse).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
    });
    server.send(ping(2));
    expect(await server.reply(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });

    // Not a JSON-RPC message: -32600 with its id; a batch: -32600.
    server.send({ jsonrpc: "1.0", id: 7, method: "ping" });
    expect((await server.reply(7)).error).toEqual({
      code: -32600,
      message: expect.stringMatching(/^Invalid Request: /),
    });
    server.send([ping(8), ping(9)]);
    const batch = await server.waitFor((frame) => frame.error?.code === -32600 && !("id" in frame));
    expect(batch.error.message).toMatch(/batches/);

    // tools/call params that do not fit: -32602 in one line (the SDK said -32603 with a zod dump).
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { arguments: {} } });
    const params = await server.reply(3);
    expect(params.error.code).toBe(-32602);
    expect(params.error.message).toMatch(/^Invalid params for tools\/call: params\.name: /);
    expect(params.error.message).not.toContain("\n");

    server.send(ping(10));
    expect((await server.reply(10)).result).toEqual({});
    expect(refusedLines(server.stderr)).toHaveLength(4);
  });

  it("shuts down cleanly when its stdout is closed (EPIPE)", async () => {
    const server = await started(runtime);
    server.child.stdout.destroy();
    for (let i = 0; i < 50; i++)
      server.send({
        jsonrpc: "2.0",
        id: 100 + i,
        method: "tools/call",
        params: { name: "list_skills", arguments: { format: "full" } },
      });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr).not.toMatch(/\n\s+at |EPIPE|Error:/);
  });

  it("treats SIGHUP like SIGTERM: a clean exit, not death by signal", async () => {
    const server = await started(runtime);
    server.child.kill("SIGHUP");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe("large and many messages on stdio", () => {
  it("refuses a line over the size limit with -32600, logs it, and keeps serving", async () => {
    const server = await started();
    // 16 MiB is the limit; this line is just over it.
    const filler = "x".repeat(16 * 1024 * 1024);
    server.send({ jsonrpc: "2.0", id: 4, method: "ping", params: { _meta: { filler } } });
    const reply = await server.waitFor((frame) => frame.error?.code === -32600);
    expect(reply).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: expect.stringMatching(/longer than 16777216 bytes/) },
    });
    server.send(ping(5));
    expect((await server.reply(5)).result).toEqual({});
    expect(refusedLines(server.stderr)).toEqual([
      expect.stringMatching(/warn: stdio: refused a message: .*longer than 16777216 bytes/),
    ]);
    expect(await server.end()).toEqual({ code: 0, signal: null });
  });

  it("reads a 9.5 MB message whole", async () => {
    const server = await started();
    const filler = "y".repeat(9.5 * 1024 * 1024);
    server.send({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { name: "read_skill", arguments: { skill_name: filler } },
    });
    const reply = await server.reply(6);
    // Read and parsed: the tool's own schema refuses a name that long.
    expect(reply.result.isError).toBe(true);
    expect(server.garbage).toEqual([]);
  });
});

describe("replies under backpressure", () => {
  it("writes many replies to a slow reader without a MaxListenersExceededWarning", async () => {
    const server = await started();
    server.child.stdout.pause();
    for (let i = 0; i < 300; i++) {
      server.send({
        jsonrpc: "2.0",
        id: 1000 + i,
        method: "tools/call",
        params: { name: "list_skills", arguments: { format: "full" } },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.child.stdout.resume();
    await server.reply(1299);
    expect(server.stderr).not.toContain("MaxListenersExceededWarning");
    expect(server.garbage).toEqual([]);
  });
});
