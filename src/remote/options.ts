import { z } from "zod";
import { MiB } from "../skills/files/skill-files.js";

const KiB = 1024;

/**
 * What every remote source bounds, with the same parser limits as the fs source: a remote
 * server is untrusted and may be slow, broken or hostile.
 */
export const remoteLimitsSchema = {
  /** One HTTP attempt (or one git command) may take this long. */
  timeoutMs: z.number().int().min(100).default(15_000),
  /** Further attempts after a network error, a timeout, a 5xx or a 429, with backoff and jitter. */
  retries: z.number().int().min(0).max(10).default(2),
  /** Requests in flight at once, per source. */
  concurrency: z.number().int().min(1).max(64).default(8),
  /** The most one source downloads between two loads; past it, its requests fail. */
  maxTotalBytes: z
    .number()
    .int()
    .min(1)
    .default(64 * MiB),
  /** The largest single file (a SKILL.md or one of its files) downloaded. */
  maxFileBytes: z
    .number()
    .int()
    .min(1)
    .default(8 * MiB),
  /** As in the fs source: larger frontmatter is refused before parsing. */
  maxFrontmatterBytes: z
    .number()
    .int()
    .min(1)
    .default(64 * KiB),
  /** As in the fs source: the head of each SKILL.md parsed for the listing. */
  maxSkillFileBytes: z
    .number()
    .int()
    .min(1)
    .default(256 * KiB),
  /** The most skills one source lists; past it, a "scan-limit" diagnostic. */
  maxSkills: z.number().int().min(1).default(5_000),
  /** Where downloads are kept when no cache plugin is configured (and git's clones always). */
  cacheDir: z.string().min(1).optional(),
};
