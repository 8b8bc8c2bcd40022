import type { Token } from "./tokens.js";

declare const resolvable: unique symbol;
import type {
  AuthInfo,
  CacheHint,
  CallToolResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { z } from "zod";
import type { Logger } from "./logger.js";
// The one type the kernel takes from the skill domain, erased at build: the caller's view it hands
// every handler unread. The catalog plugin makes one per caller (kernel.catalogFor for embedders).
import type { CatalogView } from "../skills/catalog/catalog-types.js";

// ---------------------------------------------------------------------------------------------
// Plugins
// ---------------------------------------------------------------------------------------------

/**
 * A plugin is a plain object (Vite/Rollup style): a unique name, the services it provides and
 * consumes, an optional options schema, and `setup`. `setup` is the only place to register
 * anything, and returns the plugin's lifecycle hooks (PluginHooks), if it has any. Written through
 * `definePlugin`, its context resolves only what `consumes` and `provides` list: resolving any
 * other service is a compile error, as it is a run-time one.
 */
export interface Plugin<
  Options = unknown,
  Consumes extends readonly ServiceRef[] = readonly ServiceRef[],
  Provides extends readonly Token<any>[] = readonly Token<any>[],
> {
  /** What the config, errors, logs and `dependsOn` know the plugin by, and its cache namespace: unique in a kernel. */
  readonly name: string;
  /** The plugin's own version, shown beside its name when its `kernel` range refuses this kernel. */
  readonly version?: string;
  /**
   * The kernel versions this plugin works with, as a range (`">=0.2 <1"`, `"^0.2.0"`, `"0.2.x"`).
   * A kernel outside it refuses the plugin, naming both versions.
   */
  readonly kernel?: string;
  /**
   * Services and contributions this plugin registers: plugins consuming them are set up after it.
   * Registering a token not listed here is refused (tools, server extensions and instructions,
   * which only the kernel collects, need no listing).
   */
  readonly provides?: Provides;
  /**
   * Services this plugin resolves. It is set up after every plugin that provides them; a required
   * one that no plugin provides, and whose token names no default, fails the boot, naming both
   * sides. Resolving a token not listed here (or in `provides`) is refused, naming the plugin
   * that provides it.
   */
  readonly consumes?: Consumes;
  /** Plugins that must be set up before this one, by name: for when a name is really meant. */
  readonly dependsOn?: readonly string[];
  /** Any Standard Schema (zod, valibot, arktype...). Validated options, defaults applied, reach setup. */
  readonly options?: StandardSchemaV1<unknown, Options>;
  /**
   * What a config found by searching may not use unless the user trusts it
   * (docs/configuration.md#trust): whatever reaches the network, reads a secret from the
   * environment or opens a listener. Checked before any plugin is set up.
   */
  readonly needsTrust?: NeedsTrust;
  /**
   * Wire the plugin in, and return its lifecycle hooks if it has any: closures over what this
   * setup made. A plugin object is shared by every kernel in the process (and may be listed twice
   * under two names), so per-kernel state lives in those closures, never on the object; hooks on
   * the object itself are refused.
   */
  setup(
    ctx: PluginContext<Resolvable<Consumes, Provides>>,
    options: Options,
  ): void | PluginHooks<Resolvable<Consumes, Provides>> | Promise<void | PluginHooks<Resolvable<Consumes, Provides>>>;
}

/** Why a plugin, or some of its options, need the user's trust; each reason a short clause. */
export interface NeedsTrust {
  /** Set when listing the plugin at all does it (its defaults reach out): "it opens an HTTP listener". */
  readonly plugin?: string;
  /** Top-level options that do it when set: `{ url: "skill texts and queries are sent there" }`. */
  readonly options?: Readonly<Record<string, string>>;
}

/**
 * A consumed service: required by default; `{ token, optional: true }` when the plugin copes
 * without (a token with a default is never without). `fromStart: true` says the plugin resolves
 * it only from `start` on, once every plugin is set up: it then orders nothing, so two plugins may
 * each consume the other's that way. `wholeCatalog: true` is required for a token that holds every
 * source's skills, hidden ones too (Token.wholeCatalog), and says the plugin means it.
 */
export type ServiceRef =
  | Token<any>
  | {
      readonly token: Token<any>;
      readonly optional?: boolean;
      readonly fromStart?: boolean;
      readonly wholeCatalog?: boolean;
    };

/** The token a consumed service names. */
export type RefToken<Ref> = Ref extends { readonly token: infer K } ? K : Ref;

/** What the kernel gives every plugin unasked: its logger, and what only the kernel collects. */
export type KernelToken =
  | Token<Logger>
  | Token<KernelTool>
  | Token<ServerExtension>
  | Token<InstructionsSection>
  | Token<TransportDefinition>;

/** The tokens a plugin's context resolves: those it consumes or provides, and the kernel's. */
export type Resolvable<Consumes extends readonly ServiceRef[], Provides extends readonly Token<any>[]> =
  | RefToken<Consumes[number]>
  | Provides[number]
  | KernelToken;

/** The lifecycle hooks a setup returns (see Plugin.setup). */
export interface PluginHooks<R extends Token<any> = Token<any>> {
  /** Runs once every plugin is set up: load data, open connections. */
  start?(ctx: PluginRuntimeContext<R>): void | Promise<void>;
  /**
   * Runs when the kernel starts serving a transport, never for a one-shot use such as a CLI
   * command: the place for background work only a long-lived server needs (warming an index).
   * A failure is logged; the server keeps serving.
   */
  serve?(ctx: PluginRuntimeContext<R>): void | Promise<void>;
  /** Runs in reverse boot order at shutdown. */
  stop?(ctx: PluginRuntimeContext<R>): void | Promise<void>;
}

/**
 * What every hook gets: the plugin's name, logger, folder, signal, and the services it may use,
 * `R` (what it consumes or provides): resolving another token is a compile error.
 */
export interface PluginRuntimeContext<in R extends Token<any> = Token<any>> {
  /** Type-only: what this context resolves, so a helper taking a context asks for the tokens it resolves. */
  readonly [resolvable]?: (token: R) => void;
  /** The plugin's own name. */
  readonly name: string;
  /** A logger prefixed with the plugin's name; writes to stderr. */
  readonly logger: Logger;
  /** Where relative paths in this plugin's options are resolved from (the config file's folder). */
  readonly baseDir: string;
  /** Aborted when the hook times out or the kernel shuts down. */
  readonly signal: AbortSignal;
  /**
   * True when the kernel was booted for calls in process alone (a one-shot CLI command): it
   * serves no transport, so nothing waits on the event loop while a plugin loads. The kernel
   * always says; a context made elsewhere (a test's) may leave it out, meaning false.
   */
  readonly inProcessOnly?: boolean;
  /**
   * A service another plugin (or the kernel) provides, as this plugin sees it (scoped services,
   * such as the logger, a cache namespace or a ranker, are this plugin's own). Fails with a clear
   * message when none does.
   */
  resolve<T>(token: Token<T> & R): T;
  /** Like resolve, but undefined when no plugin provides the service. Other errors still throw. */
  resolveOptional<T>(token: Token<T> & R): T | undefined;
  /** All contributions under a multi-registration token (empty when there are none). */
  resolveAll<T>(token: Token<T> & R): T[];
}

/** What setup gets: the runtime context plus the registration methods, usable only during setup. */
export interface PluginContext<in R extends Token<any> = Token<any>> extends PluginRuntimeContext<R> {
  /**
   * Provide a single service under a token; providing one twice is an error naming both plugins.
   * A token made per consumer (`scope: "plugin"`: the cache, the ranker) takes provideScoped.
   */
  provide<T>(token: Token<T>, value: T): void;
  /**
   * Provide a service that each consuming plugin gets its own instance of, made on its first
   * resolve: `consumer` names the plugin resolving it (a cache namespace, a ranker of its own).
   */
  provideScoped<T>(token: Token<T>, factory: (consumer: { readonly name: string }) => T): void;
  /** Add one contribution to a multi-registration token (skill sources, tools, transports...). */
  contribute<T>(token: Token<T>, value: T): void;
  /**
   * Add an MCP tool. Its schemas must describe themselves as JSON Schema (zod 4, valibot through
   * `toStandardJsonSchema`, arktype); anything else is refused here, naming the tool.
   */
  addTool<Input extends ToolSchema = ToolSchema, Output extends ToolSchema = ToolSchema>(
    tool: ToolDefinition<Input, Output>,
  ): void;
  /**
   * Run `extend` on every McpServer the kernel builds (one per connection), to register what has
   * no kernel contract of its own yet: resources, resource templates, prompts.
   */
  extendServer(extend: ServerExtension): void;
  /**
   * Add a section to the server's `instructions`, after the kernel's own: `section` runs each
   * time a server is built (one per connection), so what it says may follow the catalog.
   */
  addInstructions(section: InstructionsSection, options?: InstructionsOptions): void;
}

/** A part of the server's instructions, for the caller the server answers; undefined or "" adds nothing. */
export type InstructionsSection = (caller: HandlerCaller) => string | undefined;

/** What the kernel does around an instructions section besides asking it (addInstructions). */
export interface InstructionsOptions {
  /**
   * Resolves once the section can say what it has to (the catalog summary: the local sources
   * loaded). Transports wait for it before building a connection's first server, since the
   * instructions go out once per connection; it must resolve by itself within a bound of its own,
   * as every opening waits for it. Called once, when the kernel starts serving.
   */
  readonly settled?: () => Promise<void>;
}

export type { CatalogView };

/** How a caller's view of the catalog is made: `kernel.catalogFor`, and what the catalog plugin gives the kernel. */
export type CatalogFor = (identity: Identity | undefined) => CatalogView;

/** Who a handler answers, and the catalog as they may see it. */
export interface HandlerCaller {
  /** Who is calling (see Identity); undefined for a caller with no identity. */
  readonly identity?: Identity;
  /** The skill catalog as this caller may see it: hidden sources are not in it. */
  readonly catalog: CatalogView;
}

/** Registers resources or prompts on one McpServer; the returned function runs when it closes. */
export type ServerExtension = (server: McpServer, build: ServerBuild) => void | (() => void);

/** What the kernel decided for one server it builds, for the extensions that register on it. */
export interface ServerBuild extends HandlerCaller {
  /**
   * The `ttlMs` and `cacheScope` every cacheable 2026-07-28 result of this server carries (lists,
   * reads, server/discover): how long what it lists stays as it is, `private` when the caller is
   * authenticated (answers may then differ per caller).
   */
  readonly cacheHint: Required<CacheHint>;
}

/**
 * Who is asking: the subject of a validated access token over HTTP (OAuth), or the identity a
 * config chooses for stdio. It reaches tools and plugins through the request context, never
 * through globals, and never holds the token itself, so it may be logged.
 */
export interface Identity {
  /** The token's `sub`. */
  readonly subject: string;
  /** The token's scopes (`scope`, or `scp`). */
  readonly scopes: readonly string[];
  /** The claims the server was told to keep (`groups` by default): strings or lists of strings. */
  readonly claims: Readonly<Record<string, string | readonly string[]>>;
}

/** What a transport says of the connection it builds a server for. */
export interface ServerBuildOptions {
  /** The caller proved who it is (HTTP with auth on): results are cached as private. */
  readonly authenticated?: boolean;
  /**
   * For a server the caller closes and connects again (a pool of per-request servers): the
   * extensions' cleanups run when this aborts, instead of when the server first closes.
   */
  readonly lifetime?: AbortSignal;
  /** Who the caller is: a validated token's subject over HTTP, the config's identity over stdio. */
  readonly identity?: Identity;
  /**
   * Set for a caller over the network (HTTP). Tools that may write on the server (see
   * `mayWrite`) and operator-only ones are served only when `writes` is true, and every tool
   * learns the call is remote.
   */
  readonly remote?: { readonly writes: boolean };
}

// ---------------------------------------------------------------------------------------------
// MCP tools and transports
// ---------------------------------------------------------------------------------------------

/**
 * A tool's input or output schema: any Standard Schema that also gives its JSON Schema
 * (`~standard.jsonSchema`: zod 4, valibot through `toStandardJsonSchema`, arktype), or a plain
 * record of zod 4 fields, which the kernel wraps in `z.object`.
 */
export type ToolSchema = StandardSchemaWithJSON | z.ZodRawShape;

/** The arguments a handler gets once its input schema has checked them. */
export type ToolArgs<Input extends ToolSchema> = Input extends StandardSchemaWithJSON
  ? StandardSchemaWithJSON.InferOutput<Input>
  : Input extends z.ZodRawShape
    ? z.output<z.ZodObject<Input>>
    : Record<string, never>;

/** What a tool handler gets besides its arguments: its caller, their view of the catalog, and the call's signal. */
export interface ToolCallExtra extends HandlerCaller {
  /** Aborted when the client cancels the call or the connection closes. */
  readonly signal: AbortSignal;
  /** The validated access token's details, when the call came over HTTP with auth on. */
  readonly authInfo?: AuthInfo;
  /** The SDK's full request context, for what the fields above do not cover; absent outside MCP (REST, CLI tests). */
  readonly context?: ServerContext;
  /**
   * True when the call came over the network (HTTP): a tool fetching what its caller names must
   * then keep away from this machine's and private addresses.
   */
  readonly remote?: boolean;
}

/** An MCP tool: the SDK's `registerTool` config plus its handler. */
export interface ToolDefinition<Input extends ToolSchema = ToolSchema, Output extends ToolSchema = ToolSchema> {
  /** The name agents call the tool by: unique among the server's tools. */
  readonly name: string;
  /** A human-readable name a client may show instead of `name`. */
  readonly title?: string;
  /** What the tool does and when to call it: what the agent reads to choose it. */
  readonly description: string;
  /** What the arguments must be: checked before the handler runs, and listed to clients as JSON Schema. */
  readonly inputSchema?: Input;
  /** The shape of the result's `structuredContent`, listed to clients so they can rely on it. */
  readonly outputSchema?: Output;
  /**
   * MCP's hints about the tool's behaviour, for clients. Without `readOnlyHint: true` the tool is
   * taken to write, and a caller over HTTP gets it only where writes are allowed.
   */
  readonly annotations?: ToolAnnotations;
  /**
   * Reads what only the server's operator may see or set going (its account's files, requests
   * from its network), though it writes nothing: a caller over HTTP gets it only where it would get
   * the tools that write (the http transport's `writeTools`). Over stdio the caller is the operator.
   */
  readonly operatorOnly?: boolean;
  /** Gets the checked arguments (`{}` for a tool without an input schema) and the call's extra. */
  readonly handler: (args: ToolArgs<Input>, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
}

/** Builds a fresh McpServer from the kernel's registry; the SDK allows one transport per server. */
export type McpServerFactory = (options?: ServerBuildOptions) => McpServer;

/** How long what the server lists stays as it is, in ms: provided by the catalog (TOKENS.ListingTtl). */
export type ListingTtl = () => number;

/** A tool as the kernel keeps it once added: both schemas in the form the SDK takes. */
export type KernelTool = ToolDefinition<StandardSchemaWithJSON, StandardSchemaWithJSON>;

/** A transport once started: how to wait for its end, and how to end it. */
export interface RunningTransport {
  /** Resolves when the transport ends by itself (stdin closed, listener closed). */
  readonly closed: Promise<void>;
  /** Stop taking work, finish what is in flight, close every session. */
  close(): Promise<void>;
}

/** What a transport gets when the kernel serves it. */
export interface TransportContext {
  /** A new McpServer per connection: stdio calls it once, HTTP per session or per request. */
  readonly createServer: McpServerFactory;
  /**
   * Resolves once the instructions sections have settled (InstructionsOptions.settled, each
   * bounded by its plugin): a server built before then would tell its client less. A transport
   * whose client connects as the process starts (stdio) waits for it before building its server.
   */
  readonly instructionsSettled: () => Promise<void>;
  /** Changes whenever a server built now would differ from one built before (serverEdition). */
  readonly serverEdition: () => string;
  /** A logger prefixed with the transport's name; writes to stderr, never to stdout. */
  readonly logger: Logger;
  /** Aborted when the kernel closes: stop accepting and wind down. */
  readonly signal: AbortSignal;
  /** The catalog as `identity` may see it, for what a transport answers beside MCP (HTTP routes). */
  readonly catalogFor: CatalogFor;
}

/** A way to reach the server, contributed by a transport plugin under TOKENS.Transport. */
export interface TransportDefinition {
  /** What `kernel.serve(name)` and the config's `transport` pick it by ("stdio", "http"). */
  readonly name: string;
  /** Start taking connections, building a server per connection with `ctx.createServer`. */
  start(ctx: TransportContext): Promise<RunningTransport>;
}
