import type { IncomingMessage, ServerResponse } from "node:http";
import { resolvePluginEntries } from "./config/plugin-resolver.js";
import { bootKernel, type Kernel } from "./kernel/kernel.js";
import { definePlugin, type ResolvedPluginEntry, type SkillsKernelConfig } from "./kernel/config.js";
import type { Logger } from "./kernel/logger.js";
import { defineToken } from "./kernel/tokens.js";
import { BOOT_KERNEL, type BootKernel } from "./lifecycle/boot.js";
import type { ServiceRef } from "./kernel/types.js";
import type { HttpHandler } from "./plugins/transports/http/index.js";
import { builtinPlugins } from "./plugins/index.js";
import type { WholeCatalog } from "./skills/catalog/catalog.js";
import { TOKENS } from "./tokens.js";

/** How a kernel is booted: the config, where it came from, and what the code booting it brings. */
export interface KernelOptions {
  /** The plugins and settings to boot (defineConfig's value, or loadConfig's `config`). Default: none. */
  readonly config?: SkillsKernelConfig;
  /** Where relative paths in the config resolve from. Default: the working directory. */
  readonly baseDir?: string;
  /** Names the config in error messages, e.g. its file path. Default "config". */
  readonly configSource?: string;
  /** The logger every plugin's is a child of. Default: stderr, at the config's `logLevel` (else "info"). */
  readonly logger?: Logger;
  /** Last word on the loaded plugin list before boot: the CLI uses it for `--skills-dir`. */
  readonly adjustPlugins?: (plugins: ResolvedPluginEntry[]) => ResolvedPluginEntry[] | Promise<ResolvedPluginEntry[]>;
  /**
   * The kernel answers `callTool` only and never builds an MCP server (the CLI's one-shot
   * commands): the SDK's server is not loaded, and `createMcpServer` and `serve` throw.
   */
  readonly inProcessOnly?: boolean;
}

/** A kernel serving skills: the kernel, with the catalog every skills plugin shares at hand. */
export interface SkillsKernel extends Kernel {
  /** Every source's skills, whoever may see them; `catalogFor(identity)` is one caller's view. */
  readonly catalog: WholeCatalog;
  /**
   * Answer one HTTP request (MCP at /mcp, /healthz, /readyz, plugin routes such as the REST API),
   * for an app that owns the server: Bun.serve, Deno.serve, Hono. Options come from the http
   * plugin's entry in the config when it has one; `createHttpHandler` takes others. `client`:
   * as `HttpHandler.fetch`'s.
   */
  fetch(request: Request, client?: string): Promise<Response>;
  /** The same, node:http style: `http.createServer(kernel.handleNodeRequest)`, Express's `app.use`. */
  handleNodeRequest(request: IncomingMessage, response: ServerResponse): void;
}

/**
 * Offers createKernel to the plugins of every kernel it boots, so a tool that opens a source as
 * the server would (add_skill) never imports the composition root that imports it.
 */
const kernelBoot = definePlugin({
  name: "kernel-boot",
  provides: [BOOT_KERNEL],
  setup(ctx) {
    ctx.provide(BOOT_KERNEL, (options) => createKernel(options));
  },
});

/**
 * BOOT_KERNEL as the composition root consumes it: the same service (tokens match by name), with
 * kernel-boot as its default, which the lifecycle's own token cannot name without importing this file.
 */
const BOOT_KERNEL_HERE = defineToken<BootKernel>(BOOT_KERNEL.name, { default: () => kernelBoot });

/**
 * What a SkillsKernel resolves or offers, each with its token's default booted when no plugin in
 * the config provides it (`catalog`, `stdio`, `kernel-boot`): a config replaces one by providing
 * its token (its own catalog, or a plugin providing a transport and LocalCaller in place of
 * stdio), and lists the built-in `stdio` to give it options.
 */
const SKILLS_KERNEL_CONSUMES = [
  { token: TOKENS.WholeCatalog, wholeCatalog: true },
  { token: TOKENS.LocalCaller, optional: true },
  { token: BOOT_KERNEL_HERE, optional: true },
] satisfies ServiceRef[];

/**
 * The composition root: the kernel knows no plugin and loads no config, so this is where the
 * config's entries are loaded (built-ins by short name), the defaults of what a SkillsKernel needs
 * (catalog, stdio, kernel-boot) are handed to it, and its HTTP handler is attached.
 */
export async function createKernel(options: KernelOptions = {}): Promise<SkillsKernel> {
  const { config, adjustPlugins, ...rest } = options;
  let plugins = await resolvePluginEntries(config?.plugins ?? [], {
    baseDir: options.baseDir ?? process.cwd(),
    builtins: builtinPlugins,
    source: options.configSource ?? "config",
  });
  if (adjustPlugins) plugins = await adjustPlugins(plugins);
  const kernel = await bootKernel({ ...rest, config, plugins, consumes: SKILLS_KERNEL_CONSUMES });
  // Built on first use and loaded lazily: a kernel that never answers HTTP never loads that code.
  let handler: Promise<HttpHandler> | undefined;
  const http = () =>
    (handler ??= import("./plugins/transports/http/index.js").then(({ createHttpHandler }) =>
      createHttpHandler(kernel),
    ));
  const close = kernel.close.bind(kernel);
  return Object.assign(kernel, {
    catalog: kernel.resolve(TOKENS.WholeCatalog),
    fetch: async (request: Request, client?: string) => (await http()).fetch(request, client),
    handleNodeRequest(request: IncomingMessage, response: ServerResponse) {
      http().then(
        (h) => h.handleNodeRequest(request, response),
        (error: unknown) => {
          kernel.logger.error(`cannot answer HTTP: ${String(error)}`);
          response.writeHead(500).end();
        },
      );
    },
    async close() {
      await handler?.then(
        (h) => h.close(),
        () => undefined,
      );
      await close();
    },
  });
}
