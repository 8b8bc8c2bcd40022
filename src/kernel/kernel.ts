import "reflect-metadata";
import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import type { PluginErrorPolicy, ResolvedPluginEntry, SkillsKernelConfig } from "./config.js";
import { ConfigError, ERROR_CODES, LifecycleError, PluginError, describeChain, errorMessage } from "./errors.js";
import { createLogger, type Logger } from "./logger.js";
import { serverEdition } from "./server-parts.js";
import { callKernelTool, observedTool, type ToolCallOptions } from "./tool-call.js";
import type { RequestObserver } from "./request-observer.js";
import { checkedTool } from "./tool-schema.js";
import { checkPluginContracts } from "./plugin-contract.js";
import { validatePluginOptions } from "./plugin-options.js";
import { withDefaultProviders } from "./plugin-defaults.js";
import { orderPlugins, pluginNeeds } from "./plugin-order.js";
import { Declarations, refToken } from "./declarations.js";
import { ServiceRegistry, type Staged } from "./services.js";
import { withTimeout } from "./timeout.js";
import { defineToken, tokenName, type Token } from "./tokens.js";
import type {
  CatalogFor,
  CatalogView,
  Plugin,
  PluginContext,
  PluginHooks,
  PluginRuntimeContext,
  RunningTransport,
  ServerBuildOptions,
  ServiceRef,
  ToolDefinition,
  KernelTool,
} from "./types.js";
import { TOKENS } from "../tokens.js";
import { INTERNAL_TOKENS } from "../internal-tokens.js";

/** What an instructions section waits for before a connection's first server (InstructionsOptions.settled). */
const INSTRUCTIONS_SETTLED = defineToken<{ readonly plugin: string; readonly settled: () => Promise<void> }>(
  "instructions-settled",
);

/** A kernel with no catalog plugin: a handler that reads the catalog learns why there is none. */
const NO_CATALOG = new Proxy({} as CatalogView, {
  get(_target, key) {
    // Not a thenable: awaiting the catalog itself must not throw.
    if (key === "then") return undefined;
    throw new Error("no plugin in this config provides the skill catalog (the catalog plugin does)");
  },
});
const noCatalog: CatalogFor = () => NO_CATALOG;

/**
 * What bootKernel is given: the plugins, each already loaded from its config entry (src/config, by
 * the code booting the kernel), and the config's settings; the rest is as KernelOptions
 * (src/create-kernel.ts) says.
 */
export interface BootOptions {
  readonly plugins?: readonly ResolvedPluginEntry[];
  /** The log level, startup policy and transport; the kernel never reads a config's `plugins`. */
  readonly config?: Omit<SkillsKernelConfig, "plugins">;
  readonly baseDir?: string;
  readonly configSource?: string;
  readonly logger?: Logger;
  /**
   * Services the code booting the kernel resolves from it or offers its plugins, declared as a
   * plugin's `consumes`: a required one no plugin provides fails the boot, and a token's default
   * (the composition root's catalog, stdio, kernel-boot) boots when no plugin provides it, so a
   * config replaces it by providing that token.
   */
  readonly consumes?: readonly ServiceRef[];
  readonly inProcessOnly?: boolean;
}

/**
 * `started`: every plugin set up and started, ready for one-shot use or to serve; `serving`: a
 * transport is up and serve hooks have run; `stopped`: closed, for good.
 */
export type KernelState = "started" | "serving" | "stopping" | "stopped";

/** A booted kernel: its plugins set up and started, ready to call tools, build servers or serve a transport. */
export interface Kernel {
  /** Where the kernel is in its life (see KernelState): `serve` works only in `started`. */
  readonly state: KernelState;
  /** The kernel's logger, which every plugin's logger is a child of. */
  readonly logger: Logger;
  /** Names of the plugins that booted, in boot order. */
  readonly plugins: readonly string[];
  /** Every tool the plugins added (a server built for a caller over HTTP may list fewer). */
  readonly tools: readonly KernelTool[];
  /** A service a plugin provides (or the kernel's logger); throws when none does. */
  resolve<T>(token: Token<T>): T;
  /** Like resolve, but undefined when no plugin provides the service. */
  resolveOptional<T>(token: Token<T>): T | undefined;
  /** Every contribution under a multi-registration token. */
  resolveAll<T>(token: Token<T>): T[];
  /**
   * Call one tool in process, with no MCP server or client (the CLI's commands, an embedding
   * app): arguments checked and handler run as over MCP; an unknown tool is an error result.
   */
  callTool(name: string, input: Record<string, unknown>, options?: ToolCallOptions): Promise<CallToolResult>;
  /** The skill catalog as `identity` may see it: what the kernel hands every handler answering that caller. */
  readonly catalogFor: CatalogFor;
  /** A new McpServer with every contributed tool; call once per transport connection. */
  createMcpServer(options?: ServerBuildOptions): McpServer;
  /** Changes whenever a server built now would differ from one built before: its instructions or caching hint. */
  serverEdition(): string;
  /** Start a transport by name (default: the config's transport, else "stdio"). Once per kernel. */
  serve(transport?: string): Promise<RunningTransport>;
  /** Stop plugins in reverse boot order. Safe to call more than once. */
  close(): Promise<void>;
}

const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
const DEFAULT_STOP_TIMEOUT_MS = 5_000;
const NEVER_ABORTED = new AbortController().signal;

interface Booted {
  readonly plugin: Plugin<any>;
  /** The hooks its setup returned. */
  readonly hooks: PluginHooks;
  readonly staged: Staged;
  readonly context: (signal: AbortSignal) => PluginRuntimeContext;
}

/**
 * Default, check, order, set up and start the plugins given. Config mistakes throw a ConfigError
 * before any plugin runs; a plugin that fails follows the startup policy.
 */
export async function bootKernel(options: BootOptions = {}): Promise<Kernel> {
  const config = options.config ?? {};
  const source = options.configSource ?? "config";
  const baseDir = options.baseDir ?? process.cwd();
  const logger = options.logger ?? createLogger(config.logLevel ?? "info");

  const resolved = await withDefaultProviders(options.plugins ?? [], options.consumes);
  checkUniqueNames(resolved, source);
  await checkPluginContracts(
    resolved.map(({ plugin }) => plugin),
    source,
  );
  const validated = await Promise.all(
    resolved.map(async (entry) => ({
      plugin: entry.plugin,
      options: await validatePluginOptions(entry.plugin, entry.options, source),
    })),
  );
  const kernelServices = new Set<symbol>([TOKENS.Logger.key]);
  const ordered = orderPlugins(validated, source, kernelServices);
  const needs = pluginNeeds(validated, source, kernelServices);
  checkKernelConsumes(options.consumes ?? [], validated, source);
  for (const name of Object.keys(config.startup?.plugins ?? {})) {
    if (!ordered.some((entry) => entry.plugin.name === name)) {
      throw new ConfigError(`${source}: startup.plugins names "${name}", which is not a plugin in this config`);
    }
  }

  const declared = new Declarations(
    validated.map(({ plugin }) => plugin),
    kernelServices,
    options.consumes,
  );
  declared.checkConsumes(
    validated.map(({ plugin }) => plugin),
    source,
  );
  const registry = new ServiceRegistry();
  registry.provideKernelService(TOKENS.Logger, logger);
  // Who hears tool answers: set once every plugin has started, read by each tool at each call.
  let answerObservers: readonly RequestObserver[] = [];
  const toolObservers = () => answerObservers;
  const lifetime = new AbortController();
  const booted: Booted[] = [];
  const failed = new Set<string>();
  const policy = (name: string): PluginErrorPolicy =>
    config.startup?.plugins?.[name]?.onPluginError ?? config.startup?.onPluginError ?? "abort";
  const timeoutFor = (name: string): number =>
    config.startup?.plugins?.[name]?.setupTimeoutMs ?? config.startup?.setupTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;

  const stopTimeout = config.startup?.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  /** Run one hook of a plugin with its timeout; the error names the plugin, the phase and the cause. */
  const runHook = <T>(
    plugin: Plugin<any>,
    phase: string,
    ms: number,
    work: (signal: AbortSignal) => T | Promise<T>,
    // Stop hooks run once the lifetime is over: their signal aborts on their own deadline only.
    parent = phase === "stop" ? NEVER_ABORTED : lifetime.signal,
  ) =>
    withTimeout(
      ms,
      () => new PluginError(plugin.name, `${phase} timed out after ${ms} ms`, { code: ERROR_CODES.PLUGIN_TIMEOUT }),
      parent,
      work,
    ).catch((error: unknown) => {
      if (error instanceof PluginError && error.plugin === plugin.name) throw error;
      if (error instanceof ConfigError) throw error;
      throw new PluginError(plugin.name, `${phase} failed: ${errorMessage(error)}`, {
        cause: error,
        code: ERROR_CODES.PLUGIN_FAILED,
      });
    });

  const stopPlugins = async (plugins: readonly Booted[]) => {
    for (const { plugin, hooks, context } of [...plugins].reverse()) {
      if (!hooks.stop) continue;
      try {
        await runHook(plugin, "stop", stopTimeout, (signal) => hooks.stop!(context(signal)));
      } catch (error) {
        logger.error(`${errorMessage(error)}`);
        logger.debug(describeChain(error));
      }
    }
  };

  /** Apply the failure policy: abort the boot, or log and carry on without the plugin. */
  const fail = async (plugin: Plugin<any>, error: unknown) => {
    if (policy(plugin.name) === "abort") {
      lifetime.abort();
      await stopPlugins(booted);
      throw error;
    }
    logger.error(`${errorMessage(error)}; continuing without it (startup.onPluginError is "continue")`);
    logger.debug(describeChain(error));
    failed.add(plugin.name);
  };

  for (const { plugin, options: pluginOptions } of ordered) {
    const missing = [...needs.get(plugin.name)!].filter((d) => failed.has(d));
    if (missing.length > 0) {
      logger.warn(
        `plugin "${plugin.name}" skipped: it depends on ${missing.map((m) => `"${m}"`).join(", ")}, which failed`,
      );
      failed.add(plugin.name);
      continue;
    }
    const staged = registry.stage(plugin.name);
    const own = registry.containerFor(plugin.name, new Map([[TOKENS.Logger, logger.child(plugin.name)]]));
    const registering = { open: true };
    const makeContext = (signal: AbortSignal): PluginContext =>
      pluginContext({
        plugin,
        registry,
        container: own,
        staged,
        baseDir,
        inProcessOnly: options.inProcessOnly ?? false,
        signal,
        registering,
        declared,
        toolObservers,
        logger,
      });
    try {
      const returned = await runHook(plugin, "setup", timeoutFor(plugin.name), (signal) =>
        plugin.setup(makeContext(signal), pluginOptions),
      );
      const hooks = returned === undefined ? {} : checkHooks(plugin.name, returned);
      registry.commit(staged);
      booted.push({ plugin, hooks, staged, context: makeContext });
    } catch (error) {
      await fail(plugin, error);
    } finally {
      registering.open = false;
    }
  }

  for (const entry of [...booted]) {
    const { plugin, hooks, context } = entry;
    if (!hooks.start || !booted.includes(entry)) continue;
    try {
      await runHook(plugin, "start", timeoutFor(plugin.name), (signal) => hooks.start!(context(signal)));
    } catch (error) {
      await fail(plugin, error);
      // Under "continue", a plugin that did not start takes its dependents down with it; each was
      // set up, so each gets its stop hook to release what setup took.
      const goneNames = dependentsOf(plugin.name, needs);
      const gone = booted.filter((b) => goneNames.has(b.plugin.name));
      await stopPlugins(gone);
      for (const dropped of gone) {
        failed.add(dropped.plugin.name);
        registry.withdraw(dropped.plugin.name);
      }
      booted.splice(0, booted.length, ...booted.filter((b) => !gone.includes(b)));
    }
  }

  const tools = registry.contributions(TOKENS.Tool);
  const extensions = registry.contributions(TOKENS.ServerExtension);
  const instructions = registry.contributions(TOKENS.Instructions);
  const transports = registry.contributions(TOKENS.Transport);
  const observers = registry.contributions(TOKENS.RequestObserver);
  answerObservers = observers.filter((observer) => typeof observer.toolAnswered === "function");
  const kernelContainer = registry.containerFor("kernel", new Map());
  const listingTtl = registry.has(TOKENS.ListingTtl) ? registry.resolve(kernelContainer, TOKENS.ListingTtl) : undefined;
  const catalogFor = registry.has(INTERNAL_TOKENS.CallerCatalog)
    ? registry.resolve(kernelContainer, INTERNAL_TOKENS.CallerCatalog)
    : noCatalog;
  const serverParts = { tools, extensions, instructions, listingTtl, catalogFor, logger, observers };
  const serverModule = options.inProcessOnly ? undefined : await import("./mcp-server.js");
  const buildServer = (build?: ServerBuildOptions) => {
    if (!serverModule) throw new LifecycleError("this kernel was booted inProcessOnly: it builds no MCP server");
    return serverModule.createMcpServer(serverParts, build);
  };
  const edition = () => serverEdition(serverParts);
  // Once, at the first connection: each section's wait, bounded by its plugin's timeout. One that
  // fails or overruns is logged, and servers are built without waiting for it any longer.
  let settling: Promise<void> | undefined;
  const instructionsSettled = () =>
    (settling ??= Promise.all(
      registry.contributions(INSTRUCTIONS_SETTLED).map(async ({ plugin: name, settled }) => {
        const plugin = booted.find((b) => b.plugin.name === name)?.plugin;
        if (!plugin) return;
        await runHook(plugin, "instructions", timeoutFor(name), () => settled()).catch((error: unknown) =>
          logger.warn(`${errorMessage(error)}; its instructions go out as they are`),
        );
      }),
    ).then(() => undefined));

  let state: KernelState = "started";
  let closing: Promise<void> | undefined;
  return {
    get state() {
      return state;
    },
    logger,
    plugins: booted.map((b) => b.plugin.name),
    tools,
    resolve: (token) => registry.resolve(kernelContainer, token),
    resolveOptional: (token) => (registry.has(token) ? registry.resolve(kernelContainer, token) : undefined),
    resolveAll: (token) => registry.contributions(token),
    callTool: (name, input, options) => callKernelTool(tools, catalogFor, logger, name, input, options),
    catalogFor,
    createMcpServer: buildServer,
    serverEdition: edition,
    async serve(name = config.transport ?? "stdio") {
      if (!serverModule) throw new LifecycleError("this kernel was booted inProcessOnly: it serves no transport");
      if (state !== "started") {
        throw new LifecycleError(
          state === "serving"
            ? "this kernel is already serving a transport; a kernel serves one"
            : "this kernel is closed; boot a new one",
        );
      }
      const transport = transports.find((t) => t.name === name);
      if (!transport) {
        throw new ConfigError(
          `${source}: unknown transport "${name}"; available: ${transports.map((t) => t.name).join(", ") || "none"}`,
          ERROR_CODES.UNKNOWN_TRANSPORT,
        );
      }
      state = "serving";
      const running = await transport.start({
        createServer: buildServer,
        instructionsSettled,
        serverEdition: edition,
        logger: logger.child(transport.name),
        signal: lifetime.signal,
        catalogFor,
      });
      for (const { plugin, hooks, context } of booted) {
        if (!hooks.serve) continue;
        try {
          await runHook(plugin, "serve", timeoutFor(plugin.name), (signal) => hooks.serve!(context(signal)));
        } catch (error) {
          logger.error(`${errorMessage(error)}; the server keeps serving`);
          logger.debug(describeChain(error));
        }
      }
      return running;
    },
    close() {
      closing ??= (async () => {
        state = "stopping";
        lifetime.abort();
        await stopPlugins(booted);
        state = "stopped";
      })();
      return closing;
    },
  };
}

interface ContextParts {
  readonly plugin: Plugin<any>;
  readonly registry: ServiceRegistry;
  readonly container: ReturnType<ServiceRegistry["containerFor"]>;
  readonly staged: Staged;
  readonly baseDir: string;
  readonly inProcessOnly: boolean;
  readonly signal: AbortSignal;
  /** Closed once setup has ended: registrations after that would be silently lost, so they throw. */
  readonly registering: { open: boolean };
  readonly declared: Declarations;
  /** The observers of tool answers, once known: every tool added is wrapped to tell them. */
  readonly toolObservers: () => readonly RequestObserver[];
  readonly logger: Logger;
}

/**
 * One context type for every hook. Registration methods work only while the plugin's setup is
 * running; `start`, `serve` and `stop` get the same object typed without them, and a late call
 * from JavaScript (or through a context kept from setup) throws, naming the plugin.
 */
function pluginContext({
  plugin,
  registry,
  container,
  staged,
  baseDir,
  inProcessOnly,
  signal,
  registering,
  declared,
  toolObservers,
  logger,
}: ContextParts): PluginContext {
  const register = (method: string, token: Token<unknown>) => {
    if (!registering.open) {
      throw new PluginError(
        plugin.name,
        `${method}() was called after setup; register services, tools and sources in setup`,
        {
          code: ERROR_CODES.LATE_REGISTRATION,
        },
      );
    }
    declared.checkProvide(plugin, token);
  };
  const ctx: PluginContext = {
    name: plugin.name,
    logger: registry.resolve(container, TOKENS.Logger),
    baseDir,
    inProcessOnly,
    signal,
    resolve(token) {
      declared.checkResolve(plugin, token, registering.open);
      if (!registry.has(token, staged)) {
        throw new ConfigError(
          `plugin "${plugin.name}" needs service "${tokenName(token)}", which no plugin provides; ` +
            `add the plugin that provides it`,
          ERROR_CODES.SERVICE_MISSING,
        );
      }
      return registry.resolve(container, token, staged);
    },
    resolveOptional(token) {
      declared.checkResolve(plugin, token, registering.open);
      return registry.has(token, staged) ? registry.resolve(container, token, staged) : undefined;
    },
    resolveAll(token) {
      declared.checkResolve(plugin, token, registering.open);
      return registry.contributions(token, registering.open ? staged : undefined);
    },
    provide(token, value) {
      register("provide", token);
      registry.provide(staged, token, { kind: "value", value });
      declared.checkScope(plugin, token);
    },
    provideScoped(token, factory) {
      register("provideScoped", token);
      registry.provide(staged, token, { kind: "scoped", factory });
    },
    contribute(token, value) {
      register("contribute", token);
      // One way to add each: the method checks what it is given, a bare contribution would not.
      const method = CHECKED_BY.get(token.key);
      if (method) {
        throw new PluginError(
          plugin.name,
          `contribute() does not take "${tokenName(token)}"; use ctx.${method}(), which checks it`,
          {
            code: ERROR_CODES.PLUGIN_INVALID,
          },
        );
      }
      registry.contribute(staged, token, value);
    },
    addTool(tool) {
      register("addTool", TOKENS.Tool);
      let checked: KernelTool;
      try {
        checked = checkedTool(tool as unknown as ToolDefinition);
      } catch (error) {
        throw new PluginError(plugin.name, errorMessage(error), { code: ERROR_CODES.PLUGIN_INVALID });
      }
      registry.contribute(staged, TOKENS.Tool, observedTool(checked, toolObservers, logger));
    },
    extendServer(extend) {
      register("extendServer", TOKENS.ServerExtension);
      registry.contribute(staged, TOKENS.ServerExtension, checkedFunction(plugin.name, "extendServer", extend));
    },
    addInstructions(section, options) {
      register("addInstructions", TOKENS.Instructions);
      registry.contribute(staged, TOKENS.Instructions, checkedFunction(plugin.name, "addInstructions", section));
      if (options?.settled !== undefined) {
        const settled = checkedFunction(plugin.name, "addInstructions' settled", options.settled);
        registry.contribute(staged, INSTRUCTIONS_SETTLED, { plugin: plugin.name, settled });
      }
    },
  };
  return ctx;
}

/** What the kernel collects through a method of its own, which checks it, and never through contribute. */
const CHECKED_BY: ReadonlyMap<symbol, string> = new Map<symbol, string>([
  [TOKENS.Tool.key, "addTool"],
  [TOKENS.ServerExtension.key, "extendServer"],
  [TOKENS.Instructions.key, "addInstructions"],
  [INSTRUCTIONS_SETTLED.key, "addInstructions"],
]);

function checkedFunction<T>(plugin: string, method: string, value: T): T {
  if (typeof value !== "function")
    throw new PluginError(plugin, `${method}() takes a function, not ${typeof value}`, {
      code: ERROR_CODES.PLUGIN_INVALID,
    });
  return value;
}

function checkHooks(plugin: string, returned: unknown): PluginHooks {
  const valid =
    typeof returned === "object" &&
    returned !== null &&
    Object.entries(returned).every(
      ([key, value]) => ["start", "serve", "stop"].includes(key) && typeof value === "function",
    );
  if (!valid) {
    throw new PluginError(plugin, "setup must return nothing, or an object of start, serve and stop functions", {
      code: ERROR_CODES.PLUGIN_INVALID,
    });
  }
  return returned as PluginHooks;
}

/**
 * A default is booted under its own name, so a config plugin of that name that does not provide
 * the default's service would be booted beside it: refused, naming where each came from.
 */
function checkUniqueNames(entries: readonly ResolvedPluginEntry[], source: string): void {
  const seen = new Map<string, string>();
  for (const { plugin, origin } of entries) {
    const first = seen.get(plugin.name);
    if (first !== undefined) {
      throw new ConfigError(
        `${source}: two plugins are named "${plugin.name}" (${first}; ${origin}); a plugin replaces a default by providing its service, not by its name`,
      );
    }
    seen.set(plugin.name, origin);
  }
}

/** What the code booting the kernel requires, with no plugin providing it, fails the boot before any plugin runs. */
function checkKernelConsumes(
  refs: readonly ServiceRef[],
  entries: readonly { plugin: Plugin<any> }[],
  source: string,
): void {
  for (const ref of refs) {
    if ("token" in ref && ref.optional === true) continue;
    const token = refToken(ref);
    if (entries.some(({ plugin }) => plugin.provides?.some((own) => own.key === token.key))) continue;
    throw new ConfigError(
      `${source}: the kernel needs service "${tokenName(token)}", which no plugin in this config provides; add a plugin that provides it`,
      ERROR_CODES.SERVICE_MISSING,
    );
  }
}

/** The plugin itself and every plugin that needs it, directly or not. */
function dependentsOf(name: string, needs: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const gone = new Set([name]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [plugin, needed] of needs) {
      if (!gone.has(plugin) && [...needed].some((d) => gone.has(d))) {
        gone.add(plugin);
        grew = true;
      }
    }
  }
  return gone;
}
