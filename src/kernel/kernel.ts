import "reflect-metadata";
import { container as rootContainer } from "tsyringe";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { PluginErrorPolicy, SkillsKernelConfig } from "./config.js";
import { ConfigError, PluginError, errorMessage } from "./errors.js";
import { createLogger, type Logger } from "./logger.js";
import { createMcpServer } from "./mcp-server.js";
import { orderPlugins } from "./plugin-order.js";
import { validatePluginOptions } from "./plugin-options.js";
import { resolvePluginEntries, type ResolvedPluginEntry } from "./plugin-resolver.js";
import { withTimeout } from "./timeout.js";
import { KERNEL_TOKENS as TOKENS, tokenName, type Token } from "./tokens.js";
import type { Plugin, PluginContext, PluginHooks, RunningTransport, ToolDefinition, TransportDefinition } from "./types.js";

export interface KernelOptions {
  readonly config?: SkillsKernelConfig;
  /** Where relative paths in the config resolve from. Default: the working directory. */
  readonly baseDir?: string;
  /** Names the config in error messages, e.g. its file path. Default "config". */
  readonly configSource?: string;
  readonly logger?: Logger;
  /** Plugins a config may name by short name, each loaded on first use. */
  readonly builtins?: Readonly<Record<string, () => Promise<Plugin<any>>>>;
  /** Plugins booted before the config's own, whatever the config says (the catalog, stdio). */
  readonly corePlugins?: readonly Plugin<any>[];
  /** Last word on the resolved plugin list before boot: the CLI uses it for `--skills-dir`. */
  readonly adjustPlugins?: (plugins: ResolvedPluginEntry[]) => ResolvedPluginEntry[] | Promise<ResolvedPluginEntry[]>;
}

export interface Kernel {
  /** A service a plugin provides (or the kernel's logger); throws when none does. */
  resolve<T>(token: Token<T>): T;
  readonly logger: Logger;
  /** Names of the plugins that booted, in boot order. */
  readonly plugins: readonly string[];
  readonly tools: readonly ToolDefinition[];
  /** A new McpServer with every contributed tool; call once per transport connection. */
  createMcpServer(): McpServer;
  /** Start a transport by name (default: the config's transport, else "stdio"). */
  serve(transport?: string): Promise<RunningTransport>;
  /** Stop plugins in reverse boot order. Safe to call more than once. */
  close(): Promise<void>;
}

const DEFAULT_SETUP_TIMEOUT_MS = 10_000;

interface Booting {
  readonly plugin: Plugin<any>;
  /** The hooks its setup returned, else the plugin object's own. */
  readonly hooks: PluginHooks;
  readonly ctx: PluginContext;
  readonly staged: Staged;
}

/** What a plugin contributes, held back until it has booted so a failed plugin leaves no trace. */
interface Staged {
  readonly services: Map<Token<unknown>, unknown>;
  readonly contributions: [Token<unknown>, unknown][];
}

/**
 * Resolve, validate, order, set up and start every plugin of a config. Config mistakes throw a
 * ConfigError before any plugin runs; a plugin that fails follows the startup policy.
 */
export async function bootKernel(options: KernelOptions = {}): Promise<Kernel> {
  const config = options.config ?? {};
  const source = options.configSource ?? "config";
  const baseDir = options.baseDir ?? process.cwd();
  const logger = options.logger ?? createLogger(config.logLevel ?? "info");

  let resolved = [
    ...(options.corePlugins ?? []).map((plugin) => ({ plugin, options: undefined, origin: "core" })),
    ...(await resolvePluginEntries(config.plugins ?? [], { baseDir, builtins: options.builtins ?? {}, source })),
  ];
  if (options.adjustPlugins) resolved = await options.adjustPlugins(resolved);
  const validated = await Promise.all(
    resolved.map(async (entry) => ({
      plugin: entry.plugin,
      options: await validatePluginOptions(entry.plugin, entry.options, source),
    })),
  );
  const ordered = orderPlugins(validated, source);
  for (const name of Object.keys(config.startup?.plugins ?? {})) {
    if (!ordered.some((entry) => entry.plugin.name === name)) {
      throw new ConfigError(`${source}: startup.plugins names "${name}", which is not a plugin in this config`);
    }
  }

  const container = rootContainer.createChildContainer();
  container.register(TOKENS.Logger, { useValue: logger });

  const lifetime = new AbortController();
  const providers = new Map<Token<unknown>, string>([
    [TOKENS.Logger, "kernel"],
  ]);
  const committed: Booting[] = [];
  const failed = new Set<string>();
  const policy = (name: string): PluginErrorPolicy =>
    config.startup?.plugins?.[name]?.onPluginError ?? config.startup?.onPluginError ?? "abort";
  const timeoutFor = (name: string): number =>
    config.startup?.plugins?.[name]?.setupTimeoutMs ?? config.startup?.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;

  const contributionsOf = <T>(token: Token<T>, also?: Staged): T[] =>
    [...committed.map((b) => b.staged), ...(also ? [also] : [])].flatMap((staged) =>
      staged.contributions.filter(([t]) => t === token).map(([, value]) => value as T),
    );

  const makeContext = (plugin: Plugin<any>, staged: Staged, signal: AbortSignal): PluginContext => {
    const ctx: PluginContext = {
      name: plugin.name,
      logger: logger.child(plugin.name),
      baseDir,
      signal,
      provide(token, value) {
        const owner = providers.get(token) ?? (staged.services.has(token) ? plugin.name : undefined);
        if (owner) throw new Error(`${describeToken(token)} is already provided by plugin "${owner}"`);
        staged.services.set(token, value);
      },
      contribute(token, value) {
        // Names must be unique however a plugin contributes: through addTool or directly.
        const named = (value as { name?: unknown }).name;
        if (named !== undefined) {
          const kind = token === TOKENS.Tool ? "a tool" : `a ${tokenName(token)}`;
          if (contributionsOf(token, staged).some((existing) => (existing as { name?: unknown }).name === named)) {
            throw new Error(`${kind} named "${String(named)}" is already registered`);
          }
        }
        staged.contributions.push([token, value]);
      },
      resolve(token) {
        if (staged.services.has(token)) return staged.services.get(token) as never;
        if (!container.isRegistered(token, true)) {
          throw new Error(
            `needs ${describeToken(token)}, which no plugin provides (add the plugin that provides it and list it in dependsOn)`,
          );
        }
        return container.resolve(token);
      },
      resolveAll: (token) => contributionsOf(token, staged),
      addTool(tool) {
        ctx.contribute(TOKENS.Tool, tool as unknown as ToolDefinition);
      },
      extendServer(extend) {
        ctx.contribute(TOKENS.ServerExtension, extend);
      },
    };
    return ctx;
  };

  const stopPlugins = async (booted: readonly Booting[]) => {
    for (const { plugin, hooks, ctx } of [...booted].reverse()) {
      if (!hooks.stop) continue;
      try {
        await withTimeout(timeoutFor(plugin.name), `stop timed out`, new AbortController().signal, () =>
          hooks.stop!(ctx),
        );
      } catch (error) {
        logger.error(`plugin "${plugin.name}" failed to stop: ${errorMessage(error)}`);
      }
    }
  };

  /** Apply the failure policy: abort the boot, or log and carry on without the plugin. */
  const fail = async (plugin: Plugin<any>, phase: string, error: unknown) => {
    const message = `${phase} failed: ${errorMessage(error)}`;
    if (policy(plugin.name) === "abort") {
      lifetime.abort();
      await stopPlugins(committed);
      throw error instanceof ConfigError || error instanceof PluginError ? error : new PluginError(plugin.name, message);
    }
    logger.error(`plugin "${plugin.name}" ${message}; continuing without it (startup.onPluginError is "continue")`);
    failed.add(plugin.name);
  };

  for (const { plugin, options: pluginOptions } of ordered) {
    const missing = (plugin.dependsOn ?? []).filter((d) => failed.has(d));
    if (missing.length > 0) {
      logger.warn(`plugin "${plugin.name}" skipped: it depends on ${missing.map((m) => `"${m}"`).join(", ")}, which failed`);
      failed.add(plugin.name);
      continue;
    }
    const staged: Staged = { services: new Map(), contributions: [] };
    try {
      const returned = await withTimeout(timeoutFor(plugin.name), `setup timed out after ${timeoutFor(plugin.name)} ms`, lifetime.signal, (signal) =>
        plugin.setup(makeContext(plugin, staged, signal), pluginOptions),
      );
      const hooks = returned === undefined ? { start: plugin.start, serve: plugin.serve, stop: plugin.stop } : checkHooks(returned);
      for (const [token, value] of staged.services) {
        container.register(token, { useValue: value });
        providers.set(token, plugin.name);
      }
      committed.push({ plugin, hooks, ctx: makeContext(plugin, staged, lifetime.signal), staged });
    } catch (error) {
      await fail(plugin, "setup", error);
    }
  }

  for (const { plugin, hooks, staged } of [...committed]) {
    if (!hooks.start || failed.has(plugin.name)) continue;
    try {
      await withTimeout(timeoutFor(plugin.name), `start timed out after ${timeoutFor(plugin.name)} ms`, lifetime.signal, (signal) =>
        hooks.start!(makeContext(plugin, staged, signal)),
      );
    } catch (error) {
      await fail(plugin, "start", error);
      // Under "continue", a plugin that did not start takes its dependents down with it; each was
      // set up, so each gets its stop hook to release what setup took.
      const gone = committed.filter((b) => dependentsOf(plugin.name, committed).has(b.plugin.name));
      await stopPlugins(gone);
      for (const dropped of gone) {
        failed.add(dropped.plugin.name);
        // tsyringe cannot unregister: shadow each of its services with one that says why it is gone.
        for (const token of dropped.staged.services.keys()) {
          container.register(token, {
            useFactory: () => {
              throw new Error(`${describeToken(token)} is gone: plugin "${dropped.plugin.name}" did not start`);
            },
          });
        }
      }
      committed.splice(0, committed.length, ...committed.filter((b) => !gone.includes(b)));
    }
  }

  for (const { staged } of committed) {
    for (const [token, value] of staged.contributions) container.register(token, { useValue: value });
  }
  const tools = contributionsOf(TOKENS.Tool);
  const extensions = contributionsOf(TOKENS.ServerExtension);
  const buildServer = () => createMcpServer({ tools, extensions, logger });
  const transports: TransportDefinition[] = contributionsOf(TOKENS.Transport);

  let closing: Promise<void> | undefined;
  return {
    resolve: <T>(token: Token<T>): T => container.resolve(token as symbol) as T,
    logger,
    plugins: committed.map((b) => b.plugin.name),
    tools,
    createMcpServer: buildServer,
    async serve(name = config.transport ?? "stdio") {
      const transport = transports.find((t) => t.name === name);
      if (!transport) {
        throw new ConfigError(
          `${source}: unknown transport "${name}"; available: ${transports.map((t) => t.name).join(", ") || "none"}`,
        );
      }
      const running = await transport.start({ createServer: buildServer, logger, signal: lifetime.signal });
      for (const { plugin, hooks, ctx } of committed) {
        if (!hooks.serve) continue;
        try {
          await hooks.serve(ctx);
        } catch (error) {
          logger.error(`plugin "${plugin.name}" failed in its serve hook: ${errorMessage(error)}`);
        }
      }
      return running;
    },
    close() {
      closing ??= (async () => {
        lifetime.abort();
        await stopPlugins(committed);
      })();
      return closing;
    },
  };
}

function checkHooks(returned: unknown): PluginHooks {
  const valid =
    typeof returned === "object" &&
    returned !== null &&
    Object.entries(returned).every(([key, value]) => ["start", "serve", "stop"].includes(key) && typeof value === "function");
  if (!valid) throw new Error("setup must return nothing, or an object of start, serve and stop functions");
  return returned as PluginHooks;
}

/** The plugin itself and every booted plugin that depends on it, directly or not. */
function dependentsOf(name: string, booted: readonly Booting[]): Set<string> {
  const gone = new Set([name]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const { plugin } of booted) {
      if (!gone.has(plugin.name) && (plugin.dependsOn ?? []).some((d) => gone.has(d))) {
        gone.add(plugin.name);
        grew = true;
      }
    }
  }
  return gone;
}

function describeToken(token: Token<unknown>): string {
  return `service "${tokenName(token)}"`;
}
