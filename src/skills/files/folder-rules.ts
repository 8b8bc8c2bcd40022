/**
 * What makes a folder a skill, and how far a walk of one goes. Every source that reads skill
 * folders (local, git, GitHub trees, registries, HTTP catalogs) and the CLI's folder commands
 * share these, so a skill served from one place is served the same from another.
 */

// The spec's spelling wins when a case-sensitive filesystem holds both.
export const SKILL_FILES: readonly string[] = ["SKILL.md", "skill.md"];

// Dependency trees and git internals never hold skills to serve, and can be huge. Other hidden
// folders are scanned: real collections keep skills in `.curated` and `.system`.
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

/**
 * Directory entries one listing reads at most. A skill folder can hold 20,000 files (a dataset,
 * a vendored tree); past this the walk stops and the listing reports what it left out.
 */
export const MAX_LISTED_ENTRIES = 10_000;

/** Folder levels below the skill folder a listing descends, and a file path may name. */
export const MAX_FILE_DEPTH = 8;

/** Why a file under the depth limit is left out of a listing, or refused when asked for. */
export const TOO_DEEP_REASON = `the path is more than ${MAX_FILE_DEPTH} folders deep`;
