import type { StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import type { Cache } from "../kernel/cache.js";
import { PluginError } from "../kernel/errors.js";
import type { KernelToken, NeedsTrust, Plugin, PluginContext, Resolvable } from "../kernel/types.js";
import { INTERNAL_TOKENS } from "../internal-tokens.js";
import { type AddressGuard, systemLookup } from "../remote/address-guard.js";
import { cacheRoot } from "../remote/cache-dir.js";
import { HttpClient, type HttpSettings } from "../remote/http.js";
import { remoteLimitsSchema } from "../remote/options.js";
import { pluginCache } from "../remote/plugin-cache.js";
import { sourceNames } from "../skills/catalog/source-names.js";
import type { Visibility } from "../skills/catalog/visibility.js";
import type { CatalogSource } from "../skills/types.js";
import { TOKENS } from "../tokens.js";

const PROVIDES = [TOKENS.CatalogSource, TOKENS.SourceVisibility] as const;
// The host lookup is the kernel's (a test's resolver under add_skill), for the address guard.
const CONSUMES = [
  TOKENS.Cache,
  { token: TOKENS.CacheMonitor, optional: true },
  { token: INTERNAL_TOKENS.HostLookup, optional: true },
] as const;

type RemoteTokens = Resolvable<typeof CONSUMES, typeof PROVIDES>;

// The built-in remote sources' defaults, for a plugin whose schema leaves a limit out.
const LIMITS = z.object(remoteLimitsSchema).parse({});

/** The options `remoteSource` reads from a plugin's (checked) options; every other one is the plugin's. */
export interface RemoteSourceOptions {
  /** Where fetches are kept when no cache plugin outlives the process: relative to the config's folder. Default: the user's cache folder. */
  readonly cacheDir?: string;
  /** Set: connect to no loopback, link-local or private address but those of the hosts named (add_skill sets it for callers over HTTP). */
  readonly refusePrivateAddresses?: { readonly privateHosts: readonly string[] };
  /** One HTTP attempt may take this long. Default: 15 s. */
  readonly timeoutMs?: number;
  /** Further attempts after a network error, a timeout, a 5xx or a 429. Default: 2. */
  readonly retries?: number;
  /** Requests in flight at once, per client. Default: 8. */
  readonly concurrency?: number;
  /** The most one client downloads between two loads. Default: 64 MiB. */
  readonly maxTotalBytes?: number;
}

/** What a remote source's setup gets beside its context: the cache, the address guard and HTTP, set up once. */
export interface RemoteSourceKit {
  /** The user's cache folder (or `cacheDir`), for what is kept as files whatever the cache plugin (git's clones). */
  readonly cacheRoot: string;
  /** The guard `refusePrivateAddresses` asks for, resolving names through the kernel's lookup; undefined without it. */
  readonly addressGuard: AddressGuard | undefined;
  /** Each entry's source name: an explicit one as given, a default one made unique with -2, -3… */
  sourceNames(entries: readonly { readonly explicit?: string; readonly fallback: string }[]): string[];
  /** Where one source keeps its fetches: the configured cache when it outlives the process, else files on disk. */
  cache(source: string): Cache;
  /** An HTTP client under the options' limits and the address guard. */
  http(
    settings: Omit<HttpSettings, "timeoutMs" | "retries" | "concurrency" | "maxTotalBytes" | "addressGuard">,
  ): HttpClient;
  /** Serve `source`, seen only by whom `visibleTo` names when it is set; a second source of one name fails the setup. */
  add(source: CatalogSource, visibleTo?: Visibility): void;
}

/** What `remoteSource` makes a plugin from: sourceFromFiles' identity fields, and a setup given the kit. */
export interface RemoteSourceDefinition<Options extends RemoteSourceOptions> {
  /** The plugin's name (see Plugin.name). */
  readonly name: string;
  /** The plugin's own version (see Plugin.version). */
  readonly version?: string;
  /** The kernel versions the plugin works with (see Plugin.kernel). */
  readonly kernel?: string;
  /** The plugin's options: its own, and those of RemoteSourceOptions it lets a config set. */
  readonly options: StandardSchemaV1<unknown, Options>;
  /** What needs the user's trust (see Plugin.needsTrust): what is fetched, and with which secrets. */
  readonly needsTrust?: NeedsTrust;
  /** Make the sources and `remote.add` each; `remote` holds the services the plugin consumes. */
  setup(ctx: PluginContext<KernelToken>, options: Options, remote: RemoteSourceKit): void | Promise<void>;
}

/**
 * A source plugin whose skills come over the network, declared and set up as the built-in remote
 * sources are: its fetches cached where they outlive the process, `refusePrivateAddresses` guarding
 * every connection, HTTP bounded by the options' limits, source names made unique.
 */
export function remoteSource<Options extends RemoteSourceOptions>(
  definition: RemoteSourceDefinition<Options>,
): Plugin<Options> {
  const { setup, ...identity } = definition;
  const plugin: Plugin<Options, typeof CONSUMES, typeof PROVIDES> = {
    ...identity,
    provides: PROVIDES,
    consumes: CONSUMES,
    setup: (ctx, options) => setup(ctx, options, remoteKit(ctx, options)),
  };
  return plugin;
}

function remoteKit(ctx: PluginContext<RemoteTokens>, options: RemoteSourceOptions): RemoteSourceKit {
  const root = cacheRoot(options.cacheDir, ctx.baseDir);
  const cache = pluginCache(ctx, root);
  const addressGuard = options.refusePrivateAddresses && {
    privateHosts: options.refusePrivateAddresses.privateHosts,
    lookup: ctx.resolveOptional(INTERNAL_TOKENS.HostLookup) ?? systemLookup,
  };
  const limits = {
    timeoutMs: options.timeoutMs ?? LIMITS.timeoutMs,
    retries: options.retries ?? LIMITS.retries,
    concurrency: options.concurrency ?? LIMITS.concurrency,
    maxTotalBytes: options.maxTotalBytes ?? LIMITS.maxTotalBytes,
  };
  const added = new Set<string>();
  return {
    cacheRoot: root,
    addressGuard,
    sourceNames,
    cache: (source) => cache.scope(source),
    http: (settings) => new HttpClient({ ...settings, ...limits, addressGuard }),
    add(source, visibleTo) {
      if (added.has(source.name))
        throw new PluginError(ctx.name, `two sources are both named "${source.name}"; give one another name`, {
          exitCode: 2,
        });
      added.add(source.name);
      if (visibleTo) ctx.contribute(TOKENS.SourceVisibility, { name: source.name, visibleTo });
      ctx.contribute(TOKENS.CatalogSource, source);
    },
  };
}
