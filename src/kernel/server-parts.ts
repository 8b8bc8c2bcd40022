import { errorMessage } from "./errors.js";
import type { Logger } from "./logger.js";
import type { RequestObserver } from "./request-observer.js";
import type {
  CatalogFor,
  HandlerCaller,
  InstructionsSection,
  KernelTool,
  ListingTtl,
  ServerExtension,
} from "./types.js";

// What a server is built from, apart from the SDK (mcp-server.ts): a kernel that only answers
// in process reads its instructions and edition without loading the SDK's server.

const INSTRUCTIONS =
  "This server serves Agent Skills: folders of instructions, references and scripts for specific tasks. " +
  "Use its tools to find the skill that fits the task at hand and load only what you need.";

/** The kernel's instructions, then each plugin's section; a section that throws is logged and left out. */
export function composeInstructions(
  sections: readonly InstructionsSection[],
  logger: Logger,
  caller: HandlerCaller,
): string {
  const parts = [INSTRUCTIONS];
  for (const section of sections) {
    try {
      const text = section(caller);
      if (text) parts.push(text);
    } catch (error) {
      logger.error(`an instructions section failed, and is left out: ${errorMessage(error)}`);
    }
  }
  return parts.join("\n\n");
}

export interface ServerParts {
  readonly tools: readonly KernelTool[];
  readonly extensions: readonly ServerExtension[];
  readonly instructions: readonly InstructionsSection[];
  readonly listingTtl: ListingTtl | undefined;
  /** Scopes the catalog to each caller: what every handler gets as `catalog`. */
  readonly catalogFor: CatalogFor;
  readonly logger: Logger;
  /** Told of every request (metrics); the kernel's own tracing always comes first. */
  readonly observers?: readonly RequestObserver[];
}

/**
 * What a server built now is built from, beyond the registry fixed at boot: its instructions and
 * the caching hint's ttl. Equal editions make equal servers, so a transport that reuses servers
 * (HTTP, per request) drops those of an older edition. Reused servers serve callers with no
 * identity only: a signed-in caller's server is built for them.
 */
export function serverEdition({ instructions, listingTtl, catalogFor, logger }: ServerParts): string {
  return `${listingTtl?.() ?? 0}\n${composeInstructions(instructions, logger, { catalog: catalogFor(undefined) })}`;
}
