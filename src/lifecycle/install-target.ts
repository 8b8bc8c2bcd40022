import { lstat, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { errorMessage, ToolInputError } from "../kernel/errors.js";
import { parseStagingName } from "../skills/files/install-staging.js";
import { SKILL_FILES } from "../skills/files/folder-rules.js";
import { linkOnTheWay } from "../skills/files/linked-folders.js";

// Where install writes. A target is a folder people configure once and then forget; a link there
// (`.claude/skills -> $HOME` in a cloned repository) would turn "replace the folder `outer`" into
// deleting a folder of the user's. So links are refused rather than followed, and only a folder
// that holds a SKILL.md counts as an installed skill that overwrite may replace.

/** Refuses a target root, or the folder holding it, that is a symbolic link. */
export async function checkTargetRoot(targetRoot: string): Promise<void> {
  const linked = await linkOnTheWay(targetRoot, dirname(dirname(targetRoot)));
  if (linked?.problem === "is a symbolic link") {
    throw new ToolInputError(
      `refusing to install into ${targetRoot}: ${linked.path} is a symbolic link, and install never writes through one ` +
        "(it could lead anywhere); name the folder it leads to instead",
    );
  }
  if (linked) throw new ToolInputError(`refusing to install into ${targetRoot}: ${linked.path} ${linked.problem}`);
}

/**
 * Whether a skill is installed at `destination` already. Refuses anything there that overwrite
 * must not replace: a link, a file, or a folder without a SKILL.md.
 */
export async function checkDestination(destination: string): Promise<boolean> {
  const stats = await lstatOrUndefined(destination);
  if (!stats) return false;
  if (stats.isSymbolicLink()) {
    throw new ToolInputError(`${destination} is a symbolic link; install never replaces or writes through one`);
  }
  if (!stats.isDirectory())
    throw new ToolInputError(`${destination} is a file, not an installed skill; install will not replace it`);
  for (const file of SKILL_FILES) {
    if ((await lstatOrUndefined(join(destination, file)))?.isFile()) return true;
  }
  throw new ToolInputError(
    `${destination} holds no SKILL.md, so it is not an installed skill; install will not replace it`,
  );
}

/**
 * Cleans up after installs that were killed in `root`: a half copy is removed; a skill moved
 * aside for a replacement goes back to its place when nothing took it, and is removed when the
 * replacement landed. Folders of a process still running are left alone. Returns what it did.
 */
export async function recoverLeftovers(root: string): Promise<string[]> {
  const done: string[] = [];
  for (const entry of await readdir(root)) {
    const staging = parseStagingName(entry);
    if (!staging || isRunning(staging.pid)) continue;
    const path = join(root, entry);
    try {
      const destination = join(root, staging.skillName);
      if (staging.kind === "replaced" && !(await lstatOrUndefined(destination))) {
        await rename(path, destination);
        done.push(`moved ${destination} back into place: an interrupted install had moved it aside`);
      } else {
        await rm(path, { recursive: true, force: true });
        done.push(`removed ${entry}, left by an interrupted install`);
      }
    } catch (error) {
      done.push(`could not clean up ${entry}, left by an interrupted install: ${errorMessage(error)}`);
    }
  }
  return done;
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new ToolInputError(`cannot check ${path}: ${errorMessage(error)}`);
  }
}
