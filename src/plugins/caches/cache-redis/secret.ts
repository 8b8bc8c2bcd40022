import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import { readRegularFile } from "../../../lib/regular-file.js";

/** The environment variable a shared secret comes from when the config sets none. */
export const CACHE_SECRET_ENV = "SKILLS_KERNEL_CACHE_SECRET";

/** Shorter is guessable: a secret anyone can guess seals nothing. */
export const MIN_SECRET_LENGTH = 32;

/**
 * The secret Redis entries are sealed with (docs/caching.md#sealed-entries): the `secret` option,
 * else SKILLS_KERNEL_CACHE_SECRET, else one kept in the user's cache folder (made on first use,
 * readable by the user alone), so that restarts on this machine read what the last run wrote.
 * Replicas on other machines share theirs through the option or the variable. A folder that
 * cannot be written gives a secret for this process alone: entries are still checked, and the
 * next start writes them again.
 */
export async function cacheSecret(configured: string | undefined, logger: Logger): Promise<string> {
  if (configured !== undefined) return configured;
  const fromEnv = process.env[CACHE_SECRET_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const file = join(cacheRoot(undefined, process.cwd()), "redis-secret");
  try {
    const kept = (await readRegularFile(file, "utf8")).trim();
    if (kept.length >= MIN_SECRET_LENGTH) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") logger.debug(`cannot read ${file}: ${errorMessage(error)}`);
  }
  const made = randomBytes(32).toString("base64url");
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    // "wx": two processes starting at once keep the first one's secret.
    await writeFile(file, `${made}\n`, { mode: 0o600, flag: "wx" });
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readRegularFile(file, "utf8")).trim();
    logger.info(
      `cannot keep a cache secret in ${file} (${errorMessage(error)}): Redis entries this process writes are read by it alone`,
    );
    return made;
  }
}
