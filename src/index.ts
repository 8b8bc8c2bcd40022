// The public API for embedding the kernel and writing plugins.
export { createKernel, type Kernel, type KernelOptions } from "./kernel/kernel.js";
export {
  defineConfig,
  definePlugin,
  type PluginEntry,
  type PluginErrorPolicy,
  type SkillsKernelConfig,
  type StartupConfig,
} from "./kernel/config.js";
export { loadConfig, type LoadedConfig } from "./kernel/config-loader.js";
export type { ResolvedPluginEntry } from "./kernel/plugin-resolver.js";
export { TOKENS } from "./kernel/tokens.js";
export { SkillCatalog, type CatalogSkill } from "./kernel/catalog.js";
export { createLogger, LOG_LEVELS, type Logger, type LogLevel, type LogSink } from "./kernel/logger.js";
export { ConfigError, PluginError, SkillFileError, ToolInputError, UserError } from "./kernel/errors.js";
export type { CatalogChange, CatalogListener } from "./kernel/catalog.js";
export type {
  Diagnostic,
  DiagnosticSeverity,
  McpServerFactory,
  Plugin,
  PluginContext,
  RankedSkill,
  Ranker,
  RankerSearchOptions,
  RunningTransport,
  ServerExtension,
  SkillFileContent,
  SkillFileEntry,
  SkillFileListing,
  SkillSource,
  SourceSkill,
  SourceSnapshot,
  ToolDefinition,
  TransportDefinition,
} from "./kernel/types.js";
export { validateSkillDocument, type SkillValidation } from "./kernel/skill-spec.js";
export { VERSION } from "./version.js";
