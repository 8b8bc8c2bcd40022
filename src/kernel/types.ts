import type { InjectionToken } from "tsyringe";
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ZodRawShapeCompat, AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Logger } from "./logger.js";
import type { CatalogSkill } from "./catalog.js";

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
  /**
   * Wire the plugin in. It may return its lifecycle hooks: closures over what setup made, which
   * replace the plugin object's own hooks for this kernel. A plugin object is shared by every
   * kernel in the process, so per-kernel state belongs in such closures, never on the object.
   */
  setup(ctx: PluginContext, options: Options): void | PluginHooks | Promise<void | PluginHooks>;
  start?(ctx: PluginContext): void | Promise<void>;
  /**
   * Runs when the kernel starts serving a transport, never for a one-shot use such as a CLI
   * command: the place for background work only a long-lived server needs (warming an index).
   * A failure is logged; the server keeps serving.
   */
  serve?(ctx: PluginContext): void | Promise<void>;
  stop?(ctx: PluginContext): void | Promise<void>;
}

/** The lifecycle hooks a setup may return (see Plugin). */
export type PluginHooks = Pick<Plugin, "start" | "serve" | "stop">;

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
  /**
   * Run `extend` on every McpServer the kernel builds (one per connection), to register what has
   * no kernel contract of its own yet: resources, resource templates, prompts.
   */
  extendServer(extend: ServerExtension): void;
}

/** Registers resources or prompts on one McpServer; the returned function runs when it closes. */
export type ServerExtension = (server: McpServer) => void | (() => void);

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

/** One skill as a source reports it: metadata and the start of the body, never the whole body. */
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

/** A file of a skill folder other than its SKILL.md. */
export interface SkillFileEntry {
  /** Relative to the skill folder, POSIX separators, never starting with "/" or holding "..". */
  readonly path: string;
  readonly size: number;
}

export interface SkillFileListing {
  /** Sorted by path, at most the limit asked for. */
  readonly files: readonly SkillFileEntry[];
  /** How many more files the folder holds beyond `files` (a lower bound when not `complete`). */
  readonly omitted: number;
  /** False when the folder is larger than a listing reads (entry or depth limits). */
  readonly complete: boolean;
}

export interface SkillFileContent {
  /** At most the bytes asked for. */
  readonly bytes: Uint8Array;
  /** The whole file's size. */
  readonly size: number;
  readonly truncated: boolean;
}

/**
 * Where skills come from: local folders, git, HTTP catalogs, registries. Sources are listed in
 * precedence order (the first contributed wins a name clash).
 *
 * Skills are named to a source by `SourceSkill.path`. A source refuses, with a SkillFileError
 * saying why, any file that is not a regular file inside that skill's folder.
 */
export interface SkillSource {
  /** Unique among sources: the prefix of qualified ids (`source:name`). */
  readonly name: string;
  /** Human-readable location for banners and logs, e.g. the folders it scans. */
  readonly description: string;
  /** Local folders this source serves, if any (install uses them to tell whether a target is served). */
  readonly roots?: readonly string[];
  load(signal: AbortSignal): Promise<SourceSnapshot>;
  /** The skill's SKILL.md, at most maxBytes of it. */
  readDocument(skillPath: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  /** The skill folder's files other than its SKILL.md, at most `limit` of them. */
  listFiles(skillPath: string, limit: number, signal?: AbortSignal): Promise<SkillFileListing>;
  /** One file of the skill folder (a path from listFiles), at most maxBytes of it. */
  readFile(skillPath: string, filePath: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  /**
   * Call `onChange` when skills may have been added, changed or removed (the catalog debounces
   * and reloads). Returns a function that stops watching. Sources that cannot watch omit it.
   */
  watch?(onChange: () => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// Ranking
// ---------------------------------------------------------------------------------------------

export interface RankedSkill {
  readonly skill: CatalogSkill;
  /** Normalised to 0-100 (docs/search.md says how, and the match_quality thresholds). */
  readonly score: number;
}

export interface RankerSearchOptions {
  readonly limit: number;
  /** Only skills of this source. */
  readonly source?: string;
}

/**
 * Orders skills for a query. Built once from the catalog, then kept current incrementally as the
 * catalog changes (a file watcher, an install), so a large catalog is never re-indexed per edit.
 */
export interface Ranker {
  readonly name: string;
  /** Replace the whole index. */
  build(skills: readonly CatalogSkill[]): void;
  add(skills: readonly CatalogSkill[]): void;
  /** By qualified id. */
  remove(qualifiedIds: readonly string[]): void;
  /** Best first. */
  search(query: string, options: RankerSearchOptions): RankedSkill[];
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
