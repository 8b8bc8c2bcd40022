import type { InjectionToken } from "tsyringe";
import type { Logger } from "./logger.js";
import type { SkillCatalog } from "./catalog.js";
import type { Ranker, ServerExtension, SkillSource, ToolDefinition, TransportDefinition } from "./types.js";

/**
 * Injection tokens: the kernel's public service names.
 *
 * They are `Symbol.for(...)` keys, not plain symbols, so a plugin built against its own copy of
 * skills-kernel (an npm plugin with a nested install, or the CLI's bundle next to a config's import)
 * still names the same services as the kernel that loads it.
 */
function token<T>(name: string): InjectionToken<T> {
  return Symbol.for(`skills-kernel:${name}`) as InjectionToken<T>;
}

export const TOKENS = {
  /** The kernel-wide logger (stderr only). Plugins get a child named after themselves in ctx.logger. */
  Logger: token<Logger>("logger"),
  /** Every skill from every source, with identity and precedence resolved. */
  SkillCatalog: token<SkillCatalog>("skill-catalog"),
  /** Multi-registration: each skill source, in precedence order (config order). */
  SkillSource: token<SkillSource>("skill-source"),
  /** Multi-registration: each MCP tool a plugin contributes. */
  Tool: token<ToolDefinition>("tool"),
  /** The ranker search uses: provided by a ranker plugin, else search uses the default. */
  Ranker: token<Ranker>("ranker"),
  /** Multi-registration: hooks run on every McpServer built (resources, prompts). */
  ServerExtension: token<ServerExtension>("server-extension"),
  /** Multi-registration: each transport a plugin contributes (stdio is built in). */
  Transport: token<TransportDefinition>("transport"),
} as const;
