import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { definePlugin, type SkillsKernelConfig } from "../../src/kernel/config.js";
import { ConfigError, ERROR_CODES, LifecycleError, PluginError } from "../../src/kernel/errors.js";
import { bootConfig } from "../helpers/boot-config.js";
import { createLogger } from "../../src/kernel/logger.js";
import { defineToken } from "../../src/kernel/tokens.js";
import type { Plugin, ServiceRef, TransportDefinition } from "../../src/kernel/types.js";
import { VERSION } from "../../src/version.js";
import { TOKENS } from "../../src/tokens.js";

async function boot(config: SkillsKernelConfig, consumes: ServiceRef[] = []) {
  const lines: string[] = [];
  const kernel = await bootConfig(config, {
    consumes,
    logger: createLogger("debug", (line) => lines.push(line)),
    configSource: "cfg",
  });
  return { kernel, lines };
}

const GREETING = defineToken<string>("test:greeting");
const COUNTER = defineToken<{ owner: string; n: number }>("test:counter");

const provider = (name: string, value = "hello") =>
  definePlugin({ name, provides: [GREETING], setup: (ctx) => ctx.provide(GREETING, value) });

const loopback = (name: string, events: string[] = []): TransportDefinition => ({
  name,
  async start({ createServer, signal }) {
    createServer();
    events.push(`${name} started, aborted=${signal.aborted}`);
    return { closed: new Promise<void>(() => {}), close: async () => {} };
  },
});

describe("registration happens in setup only", () => {
  for (const hook of ["start", "serve"] as const) {
    it(`refuses provide and addTool from ${hook}, naming the plugin`, async () => {
      const errors: unknown[] = [];
      const late = definePlugin({
        name: "late",
        setup: () => ({
          [hook]: (ctx: any) => {
            for (const register of [
              () => ctx.provide(GREETING, "x"),
              () => ctx.addTool({ name: "t", description: "d", handler: () => ({ content: [] }) }),
            ]) {
              try {
                register();
              } catch (error) {
                errors.push(error);
              }
            }
          },
        }),
      });
      const transport = definePlugin({
        name: "wire",
        setup: (ctx) => ctx.contribute(TOKENS.Transport, loopback("wire")),
      });
      const { kernel } = await boot({ plugins: [late, transport] });
      if (hook === "serve") await kernel.serve("wire");
      expect(errors).toHaveLength(2);
      for (const error of errors) {
        expect(error).toBeInstanceOf(PluginError);
        expect(error).toMatchObject({ code: ERROR_CODES.LATE_REGISTRATION, plugin: "late" });
      }
      expect((errors[0] as Error).message).toBe(
        'plugin "late": provide() was called after setup; register services, tools and sources in setup',
      );
      await kernel.close();
    });
  }

  it("refuses a registration through a context kept from setup", async () => {
    let kept: any;
    const { kernel } = await boot({ plugins: [definePlugin({ name: "keeper", setup: (ctx) => void (kept = ctx) })] });
    expect(() => kept.contribute(TOKENS.Tool, { name: "x" })).toThrow(/contribute\(\) was called after setup/);
    await kernel.close();
  });
});

describe("errors keep their cause and say whose they are", () => {
  it("wraps a plugin's bug with its cause and stack, marked as a bug", async () => {
    const buggy = definePlugin({
      name: "buggy",
      setup() {
        (undefined as unknown as { x: number }).x;
      },
    });
    const error = await boot({ plugins: [buggy] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginError);
    expect(error).toMatchObject({ bug: true, exitCode: 1, code: ERROR_CODES.PLUGIN_FAILED });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as Error).stack).toContain("at ");
  });

  it("keeps a user mistake reported by a plugin as the user's: exit code 2, no bug", async () => {
    const picky = definePlugin({
      name: "picky",
      setup() {
        throw new ConfigError("picky: the folder ./nowhere does not exist");
      },
    });
    const error = await boot({ plugins: [picky] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ exitCode: 2 });
  });
});

describe("services by token", () => {
  it("sets a consumer up after the provider of what it consumes, whatever the config order", async () => {
    const order: string[] = [];
    const consumer = definePlugin({
      name: "consumer",
      consumes: [GREETING],
      setup: (ctx) => void order.push(`consumer got ${ctx.resolve(GREETING)}`),
    });
    const { kernel } = await boot({ plugins: [consumer, provider("greeter")] });
    expect(kernel.plugins).toEqual(["greeter", "consumer"]);
    expect(order).toEqual(["consumer got hello"]);
  });

  it("fails the boot when a required service has no provider, naming the consumer and the service", async () => {
    const consumer = definePlugin({ name: "needy", consumes: [GREETING], setup: () => {} });
    const error = await boot({ plugins: [consumer] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: ERROR_CODES.SERVICE_MISSING });
    expect((error as Error).message).toBe(
      'cfg: plugin "needy" needs service "test:greeting", which no plugin in this config provides; add a plugin that provides it',
    );
  });

  it("resolves an optional service to undefined when nobody provides it, without swallowing other errors", async () => {
    const seen: unknown[] = [];
    const optional = definePlugin({
      name: "optional",
      consumes: [{ token: GREETING, optional: true }],
      setup: () => ({ start: (ctx) => void seen.push(ctx.resolveOptional(GREETING)) }),
    });
    await boot({ plugins: [optional] });
    expect(seen).toEqual([undefined]);

    // A provider that booted and then failed to start leaves a service that says why it is gone.
    const flaky = definePlugin({
      name: "flaky",
      provides: [GREETING],
      setup(ctx) {
        ctx.provide(GREETING, "hi");
        return { start: () => Promise.reject(new Error("down")) };
      },
    });
    const { kernel } = await boot({ startup: { onPluginError: "continue" }, plugins: [flaky] });
    expect(() => kernel.resolveOptional(GREETING)).toThrow(
      'service "test:greeting" is gone: plugin "flaky" did not start',
    );
  });

  it("gives each consumer its own instance of a scoped service, and each plugin its own logger", async () => {
    const made: string[] = [];
    const counters = definePlugin({
      name: "counters",
      provides: [COUNTER],
      setup: (ctx) => ctx.provideScoped(COUNTER, ({ name }) => (made.push(name), { owner: name, n: 0 })),
    });
    const seen: string[] = [];
    const user = (name: string) =>
      definePlugin({
        name,
        consumes: [COUNTER],
        setup(ctx) {
          const counter = ctx.resolve(COUNTER);
          counter.n++;
          expect(ctx.resolve(COUNTER)).toBe(counter);
          seen.push(`${counter.owner}:${counter.n}`);
          ctx.resolve(TOKENS.Logger).info("hi");
        },
      });
    const { lines } = await boot({ plugins: [user("a"), counters, user("b")] });
    expect(seen).toEqual(["a:1", "b:1"]);
    expect(made).toEqual(["a", "b"]);
    expect(lines).toContain("[skills-kernel:a] info: hi");
  });

  it("keeps tsyringe behind one module, and the kernel free of plugins and of the skill domain but its view's type", () => {
    const dir = join(import.meta.dirname, "../../src/kernel");
    for (const file of readdirSync(dir)) {
      // Save one type, erased at build: the caller's view the kernel hands every handler unread.
      const text = readFileSync(join(dir, file), "utf8").replace(
        'import type { CatalogView } from "../skills/catalog/catalog-types.js";',
        "",
      );
      const imports = [...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);
      expect(
        imports.filter((i) => i.includes("/plugins/") || i.includes("/skills/")),
        file,
      ).toEqual([]);
      if (file !== "services.ts")
        expect(
          imports.filter((i) => i === "tsyringe"),
          file,
        ).toEqual([]);
    }
  });
});

describe("plugin contract", () => {
  it("takes hooks from setup only, refusing one on the plugin object before anything runs", async () => {
    let setUp = false;
    const odd = { name: "odd", setup: () => void (setUp = true), start: () => {} } as unknown as Plugin;
    const error = await boot({ plugins: [odd] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ERROR_CODES.PLUGIN_INVALID });
    expect((error as Error).message).toBe(
      'cfg: plugin "odd": start on the plugin object is not a hook; return { start() {...} } from setup',
    );
    expect(setUp).toBe(false);
  });

  it("refuses a malformed needsTrust, which the config loader relies on", async () => {
    for (const needsTrust of ["yes", { plugin: 1 }, { options: ["url"] }, { options: { url: true } }]) {
      const odd = { name: "odd", setup: () => {}, needsTrust } as unknown as Plugin;
      await expect(boot({ plugins: [odd] })).rejects.toThrow(
        'cfg: plugin "odd": needsTrust must be { plugin?: string, options?: { [option]: string } }',
      );
    }
    const fine = definePlugin({
      name: "fine",
      needsTrust: { plugin: "it listens", options: { url: "sent there" } },
      setup: () => {},
    });
    await expect(boot({ plugins: [fine] })).resolves.toBeDefined();
  });

  it("refuses a plugin made for another kernel, naming both versions", async () => {
    const future = definePlugin({ name: "future", version: "3.1.0", kernel: ">=9", setup: () => {} });
    const error = await boot({ plugins: [future] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ERROR_CODES.PLUGIN_INCOMPATIBLE });
    expect((error as Error).message).toBe(
      `cfg: plugin "future" 3.1.0 supports skills-kernel >=9, but this is skills-kernel ${VERSION}; use a version of the plugin made for it`,
    );
    await expect(
      boot({ plugins: [definePlugin({ name: "now", kernel: `^${VERSION}`, setup: () => {} })] }),
    ).resolves.toBeDefined();
  });
});

describe("lifecycle", () => {
  const wired = () =>
    definePlugin({ name: "wire", setup: (ctx) => ctx.contribute(TOKENS.Transport, loopback("wire")) });

  it("serves once, never after close, and says which state it is in", async () => {
    const { kernel } = await boot({ plugins: [wired()] });
    expect(kernel.state).toBe("started");
    await kernel.serve("wire");
    expect(kernel.state).toBe("serving");
    await expect(kernel.serve("wire")).rejects.toThrow(LifecycleError);
    await kernel.close();
    expect(kernel.state).toBe("stopped");
    await expect(kernel.serve("wire")).rejects.toThrow("this kernel is closed; boot a new one");
  });

  it("gives a transport the server factory, a logger and the kernel's signal", async () => {
    const events: string[] = [];
    const { kernel } = await boot({
      plugins: [
        definePlugin({ name: "wire", setup: (ctx) => ctx.contribute(TOKENS.Transport, loopback("wire", events)) }),
      ],
    });
    await kernel.serve("wire");
    expect(events).toEqual(["wire started, aborted=false"]);
    await kernel.close();
  });

  describe("what the booting code consumes, with a default", () => {
    const LOCAL = defineToken<string>("test:local");
    const builtin = (events: string[] = []) =>
      definePlugin({
        name: "line",
        provides: [TOKENS.Transport, LOCAL],
        setup(ctx) {
          ctx.contribute(TOKENS.Transport, loopback("line", events));
          ctx.provide(LOCAL, "built-in");
        },
      });
    // The booting code's copy of the token names the default, as createKernel's does for kernel-boot.
    const local = (events: string[]): ServiceRef => ({
      token: defineToken<string>(LOCAL.name, { default: () => builtin(events) }),
      optional: true,
    });

    it("boots the default when no plugin provides the token, beside another transport", async () => {
      const events: string[] = [];
      const http = definePlugin({
        name: "wire",
        provides: [TOKENS.Transport],
        setup: (ctx) => ctx.contribute(TOKENS.Transport, loopback("wire")),
      });
      const { kernel } = await boot({ plugins: [http] }, [local(events)]);
      expect(kernel.plugins).toEqual(["line", "wire"]);
      expect(kernel.resolve(LOCAL)).toBe("built-in");
      await kernel.serve("line");
      expect(events).toEqual(["line started, aborted=false"]);
      await kernel.close();
    });

    it("lets a config replace the default by providing its token, whatever its name", async () => {
      const events: string[] = [];
      const mine = definePlugin({
        name: "my-line",
        provides: [TOKENS.Transport, LOCAL],
        setup(ctx) {
          ctx.contribute(TOKENS.Transport, loopback("line", events));
          ctx.provide(LOCAL, "mine");
        },
      });
      const { kernel } = await boot({ plugins: [mine] }, [local([])]);
      expect(kernel.plugins).toEqual(["my-line"]);
      expect(kernel.resolve(LOCAL)).toBe("mine");
      await kernel.serve("line");
      expect(events).toHaveLength(1);
      await kernel.close();
    });

    it("refuses a config plugin with the default's name that does not provide its token", async () => {
      const namesake = definePlugin({
        name: "line",
        setup: (ctx) => ctx.contribute(TOKENS.Transport, loopback("other")),
      });
      await expect(boot({ plugins: [namesake] }, [local([])])).rejects.toThrow(
        'cfg: two plugins are named "line" (default of test:local; inline); a plugin replaces a default by providing its service, not by its name',
      );
    });

    it("fails the boot, before any plugin runs, when a required one has no provider", async () => {
      const ran: string[] = [];
      const other = definePlugin({ name: "other", provides: [LOCAL], setup: () => void ran.push("other") });
      const clashing = definePlugin({ name: "clashing", provides: [GREETING, LOCAL], setup() {} });
      const needed: ServiceRef = { token: GREETING, default: () => clashing };
      const error = await boot({ plugins: [other] }, [needed]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).code).toBe(ERROR_CODES.SERVICE_MISSING);
      expect((error as Error).message).toBe(
        'cfg: the kernel needs service "test:greeting", which no plugin in this config provides; add a plugin that provides it',
      );
      expect(ran).toEqual([]);
    });
  });

  it("bounds serve hooks: one that hangs is logged and serving goes on", async () => {
    const hung = definePlugin({ name: "hung", setup: () => ({ serve: () => new Promise<void>(() => {}) }) });
    const { kernel, lines } = await boot({ startup: { setupTimeoutMs: 50 }, plugins: [wired(), hung] });
    await kernel.serve("wire");
    expect(lines).toContain(
      '[skills-kernel] error: plugin "hung": serve timed out after 50 ms; the server keeps serving',
    );
    await kernel.close();
  });

  it("bounds stop hooks and aborts their signal when they run out of time", async () => {
    let aborted = false;
    const stubborn = definePlugin({
      name: "stubborn",
      setup: () => ({
        stop: (ctx) =>
          new Promise<void>((resolve) => {
            ctx.signal.addEventListener("abort", () => {
              aborted = true;
              resolve();
            });
          }),
      }),
    });
    const { kernel, lines } = await boot({ startup: { stopTimeoutMs: 50 }, plugins: [stubborn] });
    await kernel.close();
    expect(aborted).toBe(true);
    expect(lines).toContain('[skills-kernel] error: plugin "stubborn": stop timed out after 50 ms');
  });

  it("boots 50 plugins with start hooks without a listener warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const plugins = Array.from({ length: 50 }, (_, i) =>
        definePlugin({ name: `p${i}`, setup: () => ({ start: () => {} }) }),
      );
      const { kernel } = await boot({ plugins });
      await kernel.close();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
  });
});

describe("contributions", () => {
  it("names only objects: two inline server extensions from two plugins both register", async () => {
    const extension = (name: string) => definePlugin({ name, setup: (ctx) => ctx.extendServer(() => {}) });
    const { kernel } = await boot({ plugins: [extension("one"), extension("two")] });
    expect(kernel.plugins).toEqual(["one", "two"]);
    await kernel.close();
  });
});

describe("what a plugin declares is what it does", () => {
  const RANKER = defineToken<string>("test:ranker");
  const rankerPlugin = definePlugin({
    name: "ranker-x",
    provides: [RANKER],
    setup: (ctx) => ctx.provide(RANKER, "bm25"),
  });

  it("refuses a resolve of a token missing from consumes, naming the plugin, the token and its provider, in any order", async () => {
    for (const order of [0, 1]) {
      const sneaky = definePlugin({
        name: "sneaky",
        // @ts-expect-error: an undeclared service is a compile error too (test/kernel/types/typed-resolve.fixture.ts)
        setup: (ctx) => void ctx.resolveOptional(RANKER),
      });
      const plugins = order === 0 ? [rankerPlugin, sneaky] : [sneaky, rankerPlugin];
      const error = await boot({ plugins }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PluginError);
      expect(error).toMatchObject({ code: ERROR_CODES.SERVICE_UNDECLARED, plugin: "sneaky", bug: false });
      expect((error as Error).message).toBe(
        'plugin "sneaky": resolved "test:ranker" without declaring it in consumes; plugin "ranker-x" provides it',
      );
    }
  });

  it("refuses a resolveAll from a later hook too, and says when nobody provides the token", async () => {
    const late = definePlugin({
      name: "late",
      // @ts-expect-error: an undeclared service is a compile error too
      setup: () => ({ start: (ctx) => void ctx.resolveAll(COUNTER) }),
    });
    await expect(boot({ plugins: [late] })).rejects.toThrow(
      'plugin "late": resolved "test:counter" without declaring it in consumes; no plugin in this config provides it',
    );
  });

  it("refuses a registration of a token missing from provides; tools need no declaration", async () => {
    const quiet = definePlugin({ name: "quiet", setup: (ctx) => ctx.provide(RANKER, "x") });
    const error = await boot({ plugins: [quiet] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ERROR_CODES.SERVICE_UNDECLARED, plugin: "quiet" });
    expect((error as Error).message).toBe(
      'plugin "quiet": registered "test:ranker" without declaring it in provides; add it to provides',
    );
    const tools = definePlugin({
      name: "tools",
      setup: (ctx) => ctx.addTool({ name: "t", description: "d", handler: () => ({ content: [] }) }),
    });
    const { kernel } = await boot({ plugins: [tools] });
    expect(kernel.tools.map((tool) => tool.name)).toEqual(["t"]);
    await kernel.close();
  });

  it("lets two plugins each consume the other's service fromStart, and refuses it in setup", async () => {
    const SIDE = defineToken<string>("test:side");
    const seen: string[] = [];
    const left = definePlugin({
      name: "left",
      provides: [RANKER],
      consumes: [{ token: SIDE, fromStart: true }],
      setup: (ctx) => {
        ctx.provide(RANKER, "left");
        return { start: (started) => void seen.push(started.resolve(SIDE)) };
      },
    });
    const right = definePlugin({
      name: "right",
      provides: [SIDE],
      consumes: [{ token: RANKER, fromStart: true }],
      setup: (ctx) => {
        ctx.provide(SIDE, "right");
        return { start: (started) => void seen.push(started.resolve(RANKER)) };
      },
    });
    const { kernel } = await boot({ plugins: [left, right] });
    expect(seen).toEqual(["right", "left"]);
    await kernel.close();
    const eager = definePlugin({
      name: "eager",
      consumes: [{ token: SIDE, fromStart: true }],
      setup: (ctx) => void ctx.resolve(SIDE),
    });
    await expect(boot({ plugins: [left, right, eager] })).rejects.toThrow(
      'plugin "eager": resolved "test:side" in setup, but consumes declares it fromStart; resolve it from start',
    );
  });

  it("runs one plugin object listed twice under two names as two instances, each with its own state", async () => {
    const events: string[] = [];
    const counter = definePlugin({
      name: "counter",
      options: z.object({ tool: z.string() }),
      setup(ctx, { tool }) {
        let calls = 0;
        ctx.addTool({
          name: tool,
          description: "counts",
          handler: () => ({ content: [{ type: "text", text: `${ctx.name} ${++calls}` }] }),
        });
        return { start: () => void events.push(`start:${ctx.name}`) };
      },
    });
    const { kernel } = await boot({
      plugins: [
        [counter, { tool: "a" }],
        [{ ...counter, name: "counter-2" }, { tool: "b" }],
      ],
    });
    expect(events).toEqual(["start:counter", "start:counter-2"]);
    const [a, b] = kernel.tools;
    await kernel.callTool(a!.name, {});
    expect(await kernel.callTool(b!.name, {})).toMatchObject({ content: [{ text: "counter-2 1" }] });
    await kernel.close();
  });

  it("fails clearly when two instances of a plugin provide the same single service", async () => {
    const error = await boot({ plugins: [rankerPlugin, { ...rankerPlugin, name: "ranker-y" }] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: ERROR_CODES.SERVICE_CONFLICT, plugin: "ranker-y" });
    expect((error as Error).message).toBe(
      'plugin "ranker-y": service "test:ranker" is already provided by plugin "ranker-x"',
    );
  });
});

describe("PluginError", () => {
  it("is made from an options object, and refuses the old positional exit code", () => {
    const cause = new ConfigError("bad root");
    expect(new PluginError("fs", "root /x is missing", { exitCode: 2 })).toMatchObject({
      exitCode: 2,
      bug: false,
      message: 'plugin "fs": root /x is missing',
    });
    expect(new PluginError("fs", "failed", { cause, code: ERROR_CODES.PLUGIN_FAILED })).toMatchObject({
      exitCode: 2,
      cause,
      code: "SK_ERR_PLUGIN_FAILED",
    });
    expect(() => new PluginError("fs", "old", 2 as never)).toThrow(
      "PluginError takes { code?, exitCode?, cause? } as its third argument, not 2",
    );
  });
});
