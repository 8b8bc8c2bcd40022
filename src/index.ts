// The public API for embedding the kernel and writing plugins.
export { createKernel, type KernelOptions, type SkillsKernel } from "./create-kernel.js";
export type { Kernel, KernelState } from "./kernel/kernel.js";
export type { ToolCallOptions } from "./kernel/tool-call.js";
export type { Cache, CacheMonitor, CacheState, CacheStats, JsonValue } from "./kernel/cache.js";
export { defineToken, type Token, type TokenDefault, type TokenTraits } from "./kernel/tokens.js";
export {
  defineConfig,
  definePlugin,
  type PluginEntry,
  type PluginErrorPolicy,
  type ResolvedPluginEntry,
  type SkillsKernelConfig,
  type StartupConfig,
} from "./kernel/config.js";
export { loadConfig, type LoadConfigOptions, type LoadedConfig } from "./config/config-loader.js";
export type {
  McpRequestEnd,
  McpRequestInfo,
  MetricsRecorder,
  RequestObserver,
  ToolAnswer,
} from "./kernel/request-observer.js";
export { TOKENS } from "./tokens.js";
export type { WholeCatalog } from "./skills/catalog/catalog.js";
export type { CatalogSkill } from "./skills/catalog/catalog-types.js";
// What every handler's context holds as `catalog`: the caller's view.
export type { CatalogView } from "./skills/catalog/catalog-types.js";
export { canSee, visibilitySchema, type Identity, type Visibility } from "./skills/catalog/visibility.js";
// The plugin kit: a source from two methods; a remote source as the built-in ones are set up, and their HTTP client.
export { sourceFromFiles, type FilesSourceDefinition } from "./kit/source-from-files.js";
export type { SkillFiles } from "./kit/files-source.js";
export {
  remoteSource,
  type RemoteSourceDefinition,
  type RemoteSourceKit,
  type RemoteSourceOptions,
} from "./kit/remote-source.js";
// The SDK's in-memory adapter for that storage (its nodeSkillFiles, a folder on disk, is at
// @modelcontextprotocol/server/ext/skills/node).
export { memorySkillFiles } from "@modelcontextprotocol/server/ext/skills";
export { HttpClient, HttpError, type HttpRequest, type HttpResponse, type HttpSettings } from "./remote/http.js";
export type { AddressGuard, HostLookup } from "./remote/address-guard.js";
export { createLogger, LOG_LEVELS, type Logger, type LogLevel, type LogSink } from "./kernel/logger.js";
export type { Clock, ClockTimer } from "./kernel/clock.js";
export {
  ConfigError,
  ERROR_CODES,
  LifecycleError,
  PluginError,
  SkillFileError,
  ToolInputError,
  UserError,
  type ErrorCode,
  type PluginErrorOptions,
  type UserErrorOptions,
} from "./kernel/errors.js";
export type { CatalogChange, CatalogListener, SourceStatus } from "./skills/catalog/catalog-types.js";
export type {
  CatalogFor,
  HandlerCaller,
  InstructionsOptions,
  InstructionsSection,
  KernelToken,
  KernelTool,
  ListingTtl,
  McpServerFactory,
  NeedsTrust,
  Plugin,
  PluginContext,
  PluginHooks,
  PluginRuntimeContext,
  RefToken,
  Resolvable,
  RunningTransport,
  ServerBuild,
  ServerBuildOptions,
  ServerExtension,
  ServiceRef,
  ToolArgs,
  ToolCallExtra,
  ToolDefinition,
  ToolSchema,
  TransportContext,
  TransportDefinition,
} from "./kernel/types.js";
export type {
  Diagnostic,
  DiagnosticSeverity,
  LeftOutFile,
  LoadOptions,
  RankedSkill,
  Ranker,
  RankerSearchOptions,
  SkillFileContent,
  ListedFile,
  SkillFileListing,
  CatalogSource,
  PublishedArtifact,
  SourceCapabilities,
  SourceFreshness,
  SourceSkill,
  SourceSnapshot,
} from "./skills/types.js";
export type { SourceVisibility } from "./skills/catalog/visibility.js";
export type { AreaSkill, SkillPopularity } from "./skills/catalog/summary-areas.js";
export type { UsageStore } from "./skills/usage/store.js";
export type {
  MissFigures,
  SkillUsage,
  SkillUsageFigures,
  UsageCounter,
  UsageQuery,
  UsageReport,
} from "./skills/usage/report.js";
export type { AuditMode, SkillPolicy } from "./skills/policy.js";
export {
  validateSkillDocument,
  type SkillValidation,
  type SpecIssue,
  type ValidateOptions,
} from "./skills/skill-md/skill-spec.js";
export {
  parseSkillMd,
  type ParsedSkillMd,
  type ParseSkillMdOptions,
  type SkillMdIssue,
  type SkillMdResult,
} from "./skills/skill-md/skill-md.js";
// The zod (4) the kernel and the MCP SDK use: a plugin package imports it from here, so that its only
// dependency on the kernel's world is skills-kernel itself (a peer dependency).
export { z } from "zod";
export { VERSION } from "./version.js";
export {
  createHttpHandler,
  json,
  restError,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpOptions,
  type HttpRoute,
  type RequestHead,
  type RouteRequest,
  type Caller,
  type RouteCaller,
  type SignInGate,
  type TokenVerdict,
} from "./plugins/transports/http/index.js";
