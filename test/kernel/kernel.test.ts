import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { definePlugin, type SkillsKernelConfig } from "../../src/kernel/config.js";
import { ConfigError, ERROR_CODES, LifecycleError, PluginError, ToolInputError } from "../../src/kernel/errors.js";
import type { Kernel } from "../../src/kernel/kernel.js";
import { bootConfig } from "../helpers/boot-config.js";
import { builtinPlugins } from "../../src/plugins/index.js";
import { createLogger } from "../../src/kernel/logger.js";
import { TOKENS } from "../../src/tokens.js";
import { defineToken, type Token } from "../../src/kernel/tokens.js";
import type { PluginHooks } from "../../src/kernel/types.js";

function recordingLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger("debug", (line) => lines.push(line)) };
}

async function boot(config: SkillsKernelConfig) {
  const { lines, logger } = recordingLogger();
  const kernel = await bootConfig(config, { logger, configSource: "test-config", builtins: builtinPlugins });
  return { kernel, lines };
}

/** A plugin that records its lifecycle calls into `events`. */
function tracer(
  events: string[],
  name: string,
  { start, serve, stop, ...extra }: Partial<Parameters<typeof definePlugin>[0]> & PluginHooks = {},
) {
  return definePlugin({
    name,
    setup() {
      events.push(`setup:${name}`);
      return {
        start: start ?? (() => void events.push(`start:${name}`)),
        stop: stop ?? (() => void events.push(`stop:${name}`)),
        ...(serve && { serve }),
      };
    },
    ...extra,
  });
}

async function connect(kernel: Kernel) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return client;
}

const GREETING = defineToken<string>("test:greeting");

describe("createKernel lifecycle", () => {
  it("sets up and starts in dependency order and stops in reverse", async () => {
    const events: string[] = [];
    const { kernel } = await boot({
      plugins: [
        tracer(events, "c", { dependsOn: ["b"] }),
        tracer(events, "a"),
        tracer(events, "b", { dependsOn: ["a"] }),
      ],
    });
    expect(kernel.plugins).toEqual(["a", "b", "c"]);
    await kernel.close();
    await kernel.close();
    expect(events).toEqual([
      "setup:a",
      "setup:b",
      "setup:c",
      "start:a",
      "start:b",
      "start:c",
      "stop:c",
      "stop:b",
      "stop:a",
    ]);
  });

  it("uses the hooks setup returns, closures over this kernel's state, over the object's own", async () => {
    const events: string[] = [];
    const shared = definePlugin({
      name: "stateful",
      setup() {
        let connections = 0;
        return {
          start: () => void events.push(`start:${++connections}`),
          stop: () => void events.push(`stop:${connections}`),
        };
      },
    });
    const first = await boot({ plugins: [shared] });
    const second = await boot({ plugins: [shared] });
    await first.kernel.close();
    await second.kernel.close();
    expect(events).toEqual(["start:1", "start:1", "stop:1", "stop:1"]);
  });

  it("refuses a setup that returns something other than hooks", async () => {
    const odd = definePlugin({ name: "odd", setup: () => ({ begin() {} }) as never });
    await expect(boot({ plugins: [odd] })).rejects.toThrow(
      'plugin "odd": setup must return nothing, or an object of start, serve and stop functions',
    );
  });

  it("passes validated options with defaults to setup", async () => {
    let seen: unknown;
    await boot({
      plugins: [
        [
          definePlugin({
            name: "opts",
            options: z.object({ size: z.number().default(3), label: z.string() }),
            setup: (_ctx, options) => void (seen = options),
          }),
          { label: "x" },
        ],
      ],
    });
    expect(seen).toEqual({ size: 3, label: "x" });
  });

  it("refuses bad options before any plugin runs", async () => {
    const events: string[] = [];
    const run = boot({
      plugins: [
        tracer(events, "first"),
        [definePlugin({ name: "strict", options: z.object({ n: z.number() }), setup() {} }), { n: "no" }],
      ],
    });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/^test-config: plugin "strict": option n: /);
    expect(events).toEqual([]);
  });

  it("lets plugins provide and resolve services by token", async () => {
    let greeting = "";
    await boot({
      plugins: [
        definePlugin({ name: "provider", provides: [GREETING], setup: (ctx) => ctx.provide(GREETING, "hello") }),
        definePlugin({
          name: "consumer",
          consumes: [GREETING],
          setup: (ctx) => void (greeting = ctx.resolve(GREETING)),
        }),
      ],
    });
    expect(greeting).toBe("hello");
  });

  it("names the missing service", async () => {
    const run = boot({
      plugins: [
        definePlugin({
          name: "needy",
          consumes: [{ token: GREETING, optional: true }],
          setup: (ctx) => void ctx.resolve(GREETING),
        }),
      ],
    });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/plugin "needy" needs service "test:greeting", which no plugin provides/);
  });

  it("refuses a service provided twice, naming the first provider", async () => {
    const provider = (name: string) =>
      definePlugin({ name, provides: [GREETING], setup: (ctx) => ctx.provide(GREETING, name) });
    await expect(boot({ plugins: [provider("one"), provider("two")] })).rejects.toThrow(
      /plugin "two": service "test:greeting" is already provided by plugin "one"/,
    );
  });

  it("refuses to let a plugin replace a kernel service", async () => {
    const run = boot({
      plugins: [
        definePlugin({
          name: "rogue",
          provides: [TOKENS.Logger],
          setup: (ctx) => ctx.provide(TOKENS.Logger, null as never),
        }),
      ],
    });
    await expect(run).rejects.toThrow(/service "logger" is already provided by the kernel/);
  });

  it("refuses `provide` for a token made per consumer, which would hand every consumer one instance", async () => {
    const shared = definePlugin({
      name: "shared-ranker",
      provides: [TOKENS.Ranker],
      setup: (ctx) => ctx.provide(TOKENS.Ranker, null as never),
    });
    await expect(boot({ plugins: [shared] })).rejects.toThrow(
      /plugin "shared-ranker": "ranker" is made for each consumer, so that none shares another's; provide it with ctx.provideScoped/,
    );
  });
});

describe("startup failure policy", () => {
  const broken = (events: string[]) =>
    tracer(events, "broken", {
      setup: (ctx) => {
        events.push("setup:broken");
        ctx.addTool({ name: "half_done", description: "never served", handler: () => ({ content: [] }) });
        throw new Error("no database");
      },
    });

  it("aborts by default, stopping what already started", async () => {
    const events: string[] = [];
    const run = boot({ plugins: [tracer(events, "ok"), broken(events)] });
    await expect(run).rejects.toThrow('plugin "broken": setup failed: no database');
    expect(events).toEqual(["setup:ok", "setup:broken", "stop:ok"]);
  });

  it("continues without the plugin, its contributions and its dependents when asked", async () => {
    const events: string[] = [];
    const { kernel, lines } = await boot({
      startup: { onPluginError: "continue" },
      plugins: [tracer(events, "ok"), broken(events), tracer(events, "dependent", { dependsOn: ["broken"] })],
    });
    expect(kernel.plugins).toEqual(["ok"]);
    expect(kernel.tools).toEqual([]);
    expect(lines.some((l) => l.includes('plugin "broken": setup failed: no database; continuing without it'))).toBe(
      true,
    );
    expect(lines.some((l) => l.includes('plugin "dependent" skipped: it depends on "broken", which failed'))).toBe(
      true,
    );
  });

  it("applies a per-plugin policy over the default", async () => {
    const events: string[] = [];
    const { kernel } = await boot({
      startup: { onPluginError: "abort", plugins: { broken: { onPluginError: "continue" } } },
      plugins: [tracer(events, "ok"), broken(events)],
    });
    expect(kernel.plugins).toEqual(["ok"]);
  });

  it("drops a plugin whose start fails, with its dependents, under continue", async () => {
    const events: string[] = [];
    const { kernel } = await boot({
      startup: { onPluginError: "continue" },
      plugins: [
        tracer(events, "base", { start: () => Promise.reject(new Error("port in use")) }),
        tracer(events, "child", { dependsOn: ["base"] }),
        tracer(events, "other"),
      ],
    });
    expect(kernel.plugins).toEqual(["other"]);
    expect(events).not.toContain("start:child");
    expect(events).toContain("stop:child");
    expect(events).toContain("stop:base");
  });

  it("times out a setup that hangs and aborts its signal", async () => {
    let aborted = false;
    const run = boot({
      startup: { setupTimeoutMs: 50 },
      plugins: [
        definePlugin({
          name: "slow",
          setup: (ctx) =>
            new Promise<void>(() => {
              ctx.signal.addEventListener("abort", () => (aborted = true));
            }),
        }),
      ],
    });
    await expect(run).rejects.toThrow('plugin "slow": setup timed out after 50 ms');
    expect(aborted).toBe(true);
  });
});

describe("signals, dropped services and strict names", () => {
  it("aborts the setup signal a plugin keeps when the kernel closes", async () => {
    let kept: AbortSignal | undefined;
    const { kernel } = await boot({
      plugins: [definePlugin({ name: "keeper", setup: (ctx) => void (kept = ctx.signal) })],
    });
    expect(kept?.aborted).toBe(false);
    await kernel.close();
    expect(kept?.aborted).toBe(true);
  });

  it("aborts the signal of a start that times out", async () => {
    let aborted = false;
    const run = boot({
      startup: { setupTimeoutMs: 50 },
      plugins: [
        definePlugin({
          name: "slow-start",
          setup: () => ({
            start: (ctx) => new Promise<void>(() => ctx.signal.addEventListener("abort", () => (aborted = true))),
          }),
        }),
      ],
    });
    await expect(run).rejects.toThrow('plugin "slow-start": start timed out after 50 ms');
    expect(aborted).toBe(true);
  });

  it("withdraws the services of a plugin dropped at start", async () => {
    const { kernel } = await boot({
      startup: { onPluginError: "continue" },
      plugins: [
        definePlugin({
          name: "flaky-db",
          provides: [GREETING],
          setup(ctx) {
            ctx.provide(GREETING, "connected");
            return { start: () => Promise.reject(new Error("refused")) };
          },
        }),
      ],
    });
    expect(() => kernel.resolve(GREETING)).toThrow('service "test:greeting" is gone: plugin "flaky-db" did not start');
  });

  it("keeps tool names unique across plugins", async () => {
    const tool = { name: "same", description: "x", handler: () => ({ content: [] }) };
    const run = boot({
      plugins: [
        definePlugin({ name: "a", setup: (ctx) => ctx.addTool(tool) }),
        definePlugin({ name: "b", setup: (ctx) => ctx.addTool(tool) }),
      ],
    });
    await expect(run).rejects.toThrow('plugin "b": a tool named "same" is already registered');
  });

  it("takes tools, server extensions and instructions only through the methods that check them", async () => {
    // Once, contribute(Tool) skipped addTool's checks: the kernel booted, then every connection threw.
    const unchecked = { name: "raw", description: "x", inputSchema: { n: 1 }, handler: () => ({ content: [] }) };
    for (const [token, value, method] of [
      [TOKENS.Tool, unchecked, "addTool"],
      [TOKENS.ServerExtension, () => {}, "extendServer"],
      [TOKENS.Instructions, () => "", "addInstructions"],
    ] as const) {
      const run = boot({
        plugins: [definePlugin({ name: "raw", setup: (ctx) => ctx.contribute(token as Token<unknown>, value) })],
      });
      await expect(run).rejects.toMatchObject({
        code: ERROR_CODES.PLUGIN_INVALID,
        message: expect.stringContaining(`use ctx.${method}()`),
      });
    }
    const notFunction = boot({
      plugins: [definePlugin({ name: "odd", setup: (ctx) => ctx.extendServer("nope" as never) })],
    });
    await expect(notFunction).rejects.toThrow("extendServer() takes a function, not string");
  });

  it("refuses startup overrides for plugins that are not in the config", async () => {
    await expect(boot({ startup: { plugins: { ghost: { onPluginError: "continue" } } }, plugins: [] })).rejects.toThrow(
      'test-config: startup.plugins names "ghost", which is not a plugin in this config',
    );
  });
});

describe("tools over MCP", () => {
  it("serves contributed tools and turns a throw into an isError result", async () => {
    const { kernel, lines } = await boot({
      plugins: [
        definePlugin({
          name: "tools",
          setup(ctx) {
            ctx.addTool({
              name: "echo",
              description: "echo",
              inputSchema: { text: z.string() },
              handler: ({ text }) => ({ content: [{ type: "text", text }] }),
            });
            ctx.addTool({
              name: "explode",
              description: "always fails",
              handler: () => {
                throw new Error("kaboom");
              },
            });
            ctx.addTool({
              name: "picky",
              description: "refuses input",
              handler: () => {
                throw new ToolInputError("query must not be blank");
              },
            });
          },
        }),
      ],
    });
    const client = await connect(kernel);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "explode", "picky"]);
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toMatchObject({
      content: [{ type: "text", text: "hi" }],
    });
    expect(await client.callTool({ name: "explode", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "explode: internal error; the server's log has the details" }],
    });
    expect(await client.callTool({ name: "picky", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "picky: query must not be blank" }],
    });
    // The server keeps serving after a failure.
    expect(await client.callTool({ name: "echo", arguments: { text: "still here" } })).toMatchObject({
      content: [{ type: "text", text: "still here" }],
    });
    expect(lines.some((l) => l.includes("tool explode failed: kaboom"))).toBe(true);
    expect(lines.some((l) => l.includes("picky failed"))).toBe(false);
    await client.close();
    await kernel.close();
  });

  it("takes a whole schema or a record of zod fields, and gives the handler the call's signal and context", async () => {
    const seen: { signal?: AbortSignal; method?: string } = {};
    const { kernel } = await boot({
      plugins: [
        definePlugin({
          name: "tools",
          setup(ctx) {
            ctx.addTool({
              name: "whole",
              description: "a z.object schema",
              inputSchema: z.object({ n: z.number().int() }),
              outputSchema: z.object({ twice: z.number() }),
              handler: ({ n }, extra) => {
                seen.signal = extra.signal;
                seen.method = extra.context?.mcpReq.method;
                return { content: [{ type: "text", text: String(n * 2) }], structuredContent: { twice: n * 2 } };
              },
            });
            ctx.addTool({
              name: "bare",
              description: "no input schema",
              handler: (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }),
            });
          },
        }),
      ],
    });
    const client = await connect(kernel);
    const listed = (await client.listTools()).tools;
    expect(listed[0]).toMatchObject({
      inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    });
    expect(await client.callTool({ name: "whole", arguments: { n: 4 } })).toMatchObject({
      structuredContent: { twice: 8 },
    });
    expect(seen.signal).toBeInstanceOf(AbortSignal);
    expect(seen.method).toBe("tools/call");
    expect(await client.callTool({ name: "bare", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "{}" }],
    });
    // Arguments that do not fit the schema never reach the handler.
    expect(await client.callTool({ name: "whole", arguments: { n: "four" } })).toMatchObject({ isError: true });
    await client.close();
    await kernel.close();
  });

  it("calls a tool in process as MCP would: checked arguments, the caller's identity, errors as results", async () => {
    const seen: { identity?: unknown; signal?: AbortSignal } = {};
    const { kernel, lines } = await boot({
      plugins: [
        definePlugin({
          name: "tools",
          setup(ctx) {
            ctx.addTool({
              name: "double",
              description: "doubles n",
              inputSchema: { n: z.number().int() },
              handler: ({ n }, extra) => {
                Object.assign(seen, { identity: extra.identity, signal: extra.signal });
                return { content: [{ type: "text", text: String(n * 2) }] };
              },
            });
            ctx.addTool({
              name: "picky",
              description: "refuses",
              handler: () => {
                throw new ToolInputError("query must not be blank");
              },
            });
            ctx.addTool({
              name: "explode",
              description: "fails",
              handler: () => {
                throw new Error("kaboom at /secret/path");
              },
            });
          },
        }),
      ],
    });
    const identity = { subject: "ada", scopes: [], claims: { groups: ["team"] } };
    expect(await kernel.callTool("double", { n: 4 }, { identity })).toEqual({ content: [{ type: "text", text: "8" }] });
    expect(seen.identity).toEqual(identity);
    expect(seen.signal).toBeInstanceOf(AbortSignal);
    // Arguments that do not fit the schema never reach the handler.
    seen.identity = undefined;
    const bad = await kernel.callTool("double", { n: "four" });
    expect(bad).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringMatching(/^double: invalid arguments: n: /) }],
    });
    expect(seen.identity).toBeUndefined();
    expect(await kernel.callTool("picky", {})).toEqual({
      isError: true,
      content: [{ type: "text", text: "picky: query must not be blank" }],
    });
    const failed = await kernel.callTool("explode", {});
    expect(failed).toEqual({
      isError: true,
      content: [{ type: "text", text: "explode: internal error; the server's log has the details" }],
    });
    expect(lines.some((l) => l.includes("tool explode failed: kaboom at /secret/path"))).toBe(true);
    expect(await kernel.callTool("missing", {})).toEqual({
      isError: true,
      content: [{ type: "text", text: "no tool is named missing; this kernel has double, picky, explode" }],
    });
    await kernel.close();
  });

  it("refuses a tool schema that cannot give its JSON Schema (zod 3), naming the plugin and the field", async () => {
    const { z: z3 } = await import("zod/v3");
    const failure = boot({
      plugins: [
        definePlugin({
          name: "old-zod",
          setup: (ctx) =>
            ctx.addTool({
              name: "legacy",
              description: "zod 3",
              inputSchema: { q: z3.string() } as never,
              handler: () => ({ content: [] }),
            }),
        }),
      ],
    });
    await expect(failure).rejects.toThrow(PluginError);
    await expect(failure).rejects.toThrow(/old-zod.*tool legacy: inputSchema\.q is not a zod 4 schema/);
    const whole = boot({
      plugins: [
        definePlugin({
          name: "old-zod",
          setup: (ctx) =>
            ctx.addTool({
              name: "legacy",
              description: "zod 3",
              inputSchema: z3.object({ q: z3.string() }) as never,
              handler: () => ({ content: [] }),
            }),
        }),
      ],
    });
    await expect(whole).rejects.toThrow(/tool legacy: inputSchema must be a Standard Schema with JSON Schema/);
  });

  it("puts the listing TTL and the caller's scope on every cacheable 2026-07-28 result", async () => {
    const { kernel } = await boot({
      plugins: [
        definePlugin({
          name: "ttl",
          provides: [TOKENS.ListingTtl],
          setup: (ctx) => ctx.provide(TOKENS.ListingTtl, () => 42_000),
        }),
        definePlugin({
          name: "tools",
          setup: (ctx) => ctx.addTool({ name: "t", description: "t", handler: () => ({ content: [] }) }),
        }),
      ],
    });
    for (const [authenticated, cacheScope] of [
      [false, "public"],
      [true, "private"],
    ] as const) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      // serveStdio's era decision over any transport: a bare connect() serves 2025-11-25 only.
      const served = serveStdio(() => kernel.createMcpServer({ authenticated }), { transport: serverSide });
      const client = new Client(
        { name: "test", version: "0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(clientSide);
      expect(await client.listTools()).toMatchObject({ ttlMs: 42_000, cacheScope });
      await client.close();
      await served.close();
    }
    await kernel.close();
  });

  it("refuses two tools with one name", async () => {
    const tool = { name: "same", description: "x", handler: () => ({ content: [] }) };
    await expect(
      boot({
        plugins: [
          definePlugin({ name: "a", setup: (ctx) => ctx.addTool(tool) }),
          definePlugin({ name: "b", setup: (ctx) => ctx.addTool(tool) }),
        ],
      }),
    ).rejects.toThrow('plugin "b": a tool named "same" is already registered');
  });

  it("runs server extensions on every server it builds, and their cleanups on close", async () => {
    const events: string[] = [];
    const { kernel } = await boot({
      plugins: [
        definePlugin({
          name: "ext",
          setup: (ctx) =>
            ctx.extendServer((server) => {
              events.push("extend");
              server.registerPrompt("hello", { description: "say hello" }, () => ({
                messages: [{ role: "user", content: { type: "text", text: "hello" } }],
              }));
              return () => events.push("cleanup");
            }),
        }),
      ],
    });
    const client = await connect(kernel);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["hello"]);
    await client.close();
    expect(events).toEqual(["extend", "cleanup"]);
  });

  it("makes a fresh server per call, as per-connection transports need", async () => {
    const { kernel } = await boot({ plugins: [] });
    expect(kernel.createMcpServer()).not.toBe(kernel.createMcpServer());
  });

  it("runs serve hooks when it serves a transport, and only then; a failing one is logged", async () => {
    const events: string[] = [];
    const { kernel, lines } = await boot({
      plugins: [
        definePlugin({
          name: "loopback",
          setup: (ctx) =>
            ctx.contribute(TOKENS.Transport, {
              name: "loopback",
              async start({ createServer }) {
                createServer();
                events.push("transport started");
                return { closed: new Promise<void>(() => {}), close: async () => {} };
              },
            }),
        }),
        tracer(events, "warm", { serve: () => void events.push("serve:warm") }),
        tracer(events, "grumpy", { serve: () => Promise.reject(new Error("no index today")) }),
      ],
    });
    expect(events).not.toContain("serve:warm");
    await kernel.serve("loopback");
    expect(events).toContain("transport started");
    expect(events.indexOf("serve:warm")).toBeGreaterThan(events.indexOf("transport started"));
    expect(
      lines.some((l) => l.includes('plugin "grumpy": serve failed: no index today; the server keeps serving')),
    ).toBe(true);
    await kernel.close();
  });

  it("names the available transports when asked for an unknown one", async () => {
    const { kernel } = await boot({ plugins: [] });
    await expect(kernel.serve("carrier-pigeon")).rejects.toThrow(
      'test-config: unknown transport "carrier-pigeon"; available: none',
    );
  });
});

describe("the server's instructions", () => {
  it("are the kernel's, then each plugin's section in boot order, asked afresh for each server", async () => {
    let calls = 0;
    const { kernel, lines } = await boot({
      plugins: [
        definePlugin({ name: "first", setup: (ctx) => ctx.addInstructions(() => `First section, call ${++calls}.`) }),
        definePlugin({ name: "silent", setup: (ctx) => ctx.addInstructions(() => undefined) }),
        definePlugin({
          name: "broken",
          setup: (ctx) =>
            ctx.addInstructions(() => {
              throw new Error("no summary today");
            }),
        }),
        definePlugin({
          name: "last",
          dependsOn: ["first"],
          setup: (ctx) => ctx.addInstructions(() => "Last section."),
        }),
      ],
    });
    const client = await connect(kernel);
    const instructions = client.getInstructions() ?? "";
    expect(instructions.split("\n\n")).toEqual([
      expect.stringMatching(/^This server serves Agent Skills/),
      "First section, call 1.",
      "Last section.",
    ]);
    expect(
      lines.some((line) => line.includes("an instructions section failed, and is left out: no summary today")),
    ).toBe(true);
    expect((await connect(kernel)).getInstructions()).toContain("First section, call 2.");
    await kernel.close();
  });

  it("let a transport wait for each section's settled, once, and go on without one that fails or overruns", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let settledCalls = 0;
    let settled: (() => Promise<void>) | undefined;
    const { kernel, lines } = await boot({
      startup: { plugins: { hanging: { setupTimeoutMs: 50 } } },
      plugins: [
        definePlugin({
          name: "gated",
          setup: (ctx) =>
            ctx.addInstructions(() => "Gated section.", {
              settled: () => {
                settledCalls++;
                return gate;
              },
            }),
        }),
        definePlugin({
          name: "broken",
          setup: (ctx) => ctx.addInstructions(() => "", { settled: () => Promise.reject(new Error("cannot tell")) }),
        }),
        definePlugin({
          name: "hanging",
          setup: (ctx) => ctx.addInstructions(() => "", { settled: () => new Promise<void>(() => {}) }),
        }),
        definePlugin({
          name: "probe",
          setup: (ctx) =>
            ctx.contribute(TOKENS.Transport, {
              name: "probe",
              async start({ instructionsSettled }) {
                settled = instructionsSettled;
                return { closed: new Promise<void>(() => {}), close: async () => {} };
              },
            }),
        }),
      ],
    });
    await kernel.serve("probe");
    let done = false;
    const first = settled!().then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    open();
    await first;
    await settled!();
    expect(settledCalls).toBe(1);
    expect(lines.some((l) => l.includes('plugin "broken": instructions failed: cannot tell'))).toBe(true);
    expect(lines.some((l) => l.includes('plugin "hanging": instructions timed out after 50 ms'))).toBe(true);
    await kernel.close();
  });

  it("refuse a settled that is not a function", async () => {
    await expect(
      boot({
        plugins: [
          definePlugin({
            name: "odd",
            setup: (ctx) => ctx.addInstructions(() => "", { settled: "soon" as never }),
          }),
        ],
      }),
    ).rejects.toThrow("addInstructions' settled() takes a function, not string");
  });

  it("take no section from a plugin after its setup", async () => {
    let late: unknown;
    const { kernel } = await boot({
      plugins: [
        definePlugin({
          name: "late",
          setup: () => ({
            start: (ctx: any) => {
              try {
                ctx.addInstructions(() => "too late");
              } catch (error) {
                late = error;
              }
            },
          }),
        }),
      ],
    });
    expect(late).toMatchObject({
      message: 'plugin "late": addInstructions() was called after setup; register services, tools and sources in setup',
    });
    expect((await connect(kernel)).getInstructions()).not.toContain("too late");
    await kernel.close();
  });
});

describe("a kernel booted inProcessOnly", () => {
  it("answers callTool, and refuses to build an MCP server or serve", async () => {
    const kernel = await bootConfig(
      {
        plugins: [
          definePlugin({
            name: "tools",
            setup(ctx) {
              ctx.addTool({
                name: "echo",
                description: "echo",
                inputSchema: { text: z.string() },
                handler: ({ text }) => ({ content: [{ type: "text", text }] }),
              });
            },
          }),
        ],
      },
      { inProcessOnly: true, logger: createLogger("error", () => undefined) },
    );
    expect(await kernel.callTool("echo", { text: "hi" })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    expect(kernel.serverEdition()).toContain("Agent Skills");
    expect(() => kernel.createMcpServer()).toThrow(LifecycleError);
    await expect(kernel.serve()).rejects.toThrow(/inProcessOnly: it serves no transport/);
    expect(kernel.state).toBe("started");
    await kernel.close();
  });

  it("tells each plugin's setup and start so, and a served kernel's that it is not", async () => {
    const told: unknown[] = [];
    const telling = definePlugin({
      name: "telling",
      setup(ctx) {
        told.push(ctx.inProcessOnly);
        return { start: (started) => void told.push(started.inProcessOnly) };
      },
    });
    const quiet = { logger: createLogger("error", () => undefined) };
    await (await bootConfig({ plugins: [telling] }, { inProcessOnly: true, ...quiet })).close();
    await (await bootConfig({ plugins: [telling] }, quiet)).close();
    expect(told).toEqual([true, true, false, false]);
  });
});
