import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ConfigError, errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import { cacheRoot } from "../../../remote/cache-dir.js";
import { openRegular } from "../../../lib/regular-file.js";

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
  if (fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv.length < MIN_SECRET_LENGTH)
      throw new ConfigError(`${CACHE_SECRET_ENV} must be at least ${MIN_SECRET_LENGTH} characters`);
    return fromEnv;
  }
  const file = join(cacheRoot(undefined, process.cwd()), "redis-secret");
  const kept = await readKept(file);
  if (kept !== undefined) return kept;
  const made = randomBytes(32).toString("base64url");
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    // "wx": two processes starting at once keep the first one's secret.
    await writeFile(file, `${made}\n`, { mode: 0o600, flag: "wx" });
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readKept(file)) ?? made;
    logger.info(
      `cannot keep a cache secret in ${file} (${errorMessage(error)}): Redis entries this process writes are read by it alone`,
    );
    return made;
  }
}

/**
 * The secret kept in `file`, undefined when there is none. One that others may read is refused,
 * as ssh refuses such a private key: whoever reads it can seal entries this server would serve.
 */
async function readKept(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await openRegular(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read the cache secret in ${file}: ${errorMessage(error)}`);
  }
  try {
    const { mode } = await handle.stat();
    if (process.platform !== "win32" && (mode & 0o077) !== 0)
      throw new ConfigError(
        `${file} holds the cache secret and other users may read it (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${file}, or set ${CACHE_SECRET_ENV}`,
      );
    const kept = (await handle.readFile("utf8")).trim();
    if (kept.length < MIN_SECRET_LENGTH)
      throw new ConfigError(
        `${file} holds a cache secret shorter than ${MIN_SECRET_LENGTH} characters: delete it (a new one is made) or set ${CACHE_SECRET_ENV}`,
      );
    return kept;
  } finally {
    await handle.close();
  }
}
