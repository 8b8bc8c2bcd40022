import type { InjectionToken } from "tsyringe";
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ZodRawShapeCompat, AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Logger } from "./logger.js";

// ---------------------------------------------------------------------------------------------
// Plugins
// ---------------------------------------------------------------------------------------------

/**
 * A plugin is a plain object (Vite/Rollup style): a unique name, what it depends on, an optional
 * options schema, and hooks. `setup` wires contributions into the kernel; `start` runs once every
 * plugin is set up (load data, open connections); `stop` runs in reverse order at shutdown.
 */
export interface Plugin<Options = unknown> {
  readonly name: string;
  readonly version?: string;
  /** Plugins that must be set up before this one. A missing or cyclic dependency fails the boot. */
  readonly dependsOn?: readonly string[];
  /** Any Standard Schema (zod, valibot, arktype...). Validated options, defaults applied, reach setup. */
  readonly options?: StandardSchemaV1<unknown, Options>;
  setup(ctx: PluginContext, options: Options): void | Promise<void>;
  start?(ctx: PluginContext): void | Promise<void>;
  stop?(ctx: PluginContext): void | Promise<void>;
}

export interface PluginContext {
  /** The plugin's own name. */
  readonly name: string;
  /** A logger prefixed with the plugin's name; writes to stderr. */
  readonly logger: Logger;
  /** Where relative paths in this plugin's options are resolved from (the config file's folder). */
  readonly baseDir: string;
  /** Aborted when setup times out or the kernel shuts down. */
  readonly signal: AbortSignal;
  /** Provide a single service under a token; providing one twice is an error naming both plugins. */
  provide<T>(token: InjectionToken<T>, value: T): void;
  /** Add one contribution to a multi-registration token (skill sources, tools, transports...). */
  contribute<T>(token: InjectionToken<T>, value: T): void;
  /** Resolve a service another plugin (or the kernel) provides; fails with a clear message if none does. */
  resolve<T>(token: InjectionToken<T>): T;
  /** All contributions under a multi-registration token (empty when there are none). */
  resolveAll<T>(token: InjectionToken<T>): T[];
  addSkillSource(source: SkillSource): void;
  addTool<Input extends ZodRawShapeCompat | AnySchema, Output extends ZodRawShapeCompat | AnySchema>(
    tool: ToolDefinition<Input, Output>,
  ): void;
}

// ---------------------------------------------------------------------------------------------
// Skills
// ---------------------------------------------------------------------------------------------

export type DiagnosticSeverity = "error" | "warning";

/** Something wrong with one skill: `error` means it was skipped, `warning` means it loaded anyway. */
export interface Diagnostic {
  readonly severity: DiagnosticSeverity;
  /** The source that found it. */
  readonly source: string;
  /** Where, relative to the source's root (POSIX separators). */
  readonly path: string;
  /** A stable, machine-readable kind, e.g. "yaml-parse", "missing-description", "name-mismatch". */
  readonly code: string;
  readonly message: string;
}

/** One skill as a source reports it: metadata only, never the body. */
export interface SourceSkill {
  readonly name: string;
  readonly description: string;
  /** The skill folder, relative to the source's root, POSIX separators ("" for the root itself). */
  readonly path: string;
  /** The parsed frontmatter as a null-prototype object of plain data. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The start of the markdown body (a couple of thousand characters at most), for ranking. */
  readonly excerpt: string;
  /** Order within the source (lower wins a name clash); e.g. the root's index. */
  readonly rank: number;
}

export interface SourceSnapshot {
  readonly skills: readonly SourceSkill[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Where skills come from: local folders, git, HTTP catalogs, registries. Sources are listed in
 * precedence order (the first contributed wins a name clash).
 */
export interface SkillSource {
  /** Unique among sources: the prefix of qualified ids (`source:name`). */
  readonly name: string;
  /** Human-readable location for banners and logs, e.g. the folders it scans. */
  readonly description: string;
  load(signal: AbortSignal): Promise<SourceSnapshot>;
}

// ---------------------------------------------------------------------------------------------
// MCP tools and transports
// ---------------------------------------------------------------------------------------------

/** An MCP tool, in the shape of the SDK's `registerTool` config plus its handler. */
export interface ToolDefinition<
  Input extends ZodRawShapeCompat | AnySchema = ZodRawShapeCompat | AnySchema,
  Output extends ZodRawShapeCompat | AnySchema = ZodRawShapeCompat | AnySchema,
> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema?: Input;
  readonly outputSchema?: Output;
  readonly annotations?: ToolAnnotations;
  readonly handler: ToolCallback<Input>;
}

/** Builds a fresh McpServer from the kernel's registry; the SDK allows one transport per server. */
export type McpServerFactory = () => McpServer;

export interface RunningTransport {
  /** Resolves when the transport ends by itself (stdin closed, listener closed). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * A way to reach the server. stdio makes one server; an HTTP transport can call the factory per
 * session or per request.
 */
export interface TransportDefinition {
  readonly name: string;
  start(createServer: McpServerFactory, logger: Logger): Promise<RunningTransport>;
}
