import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One folder for the run: the root config and each project extending it run this setup. */
let scratch: Promise<string> | undefined;
let holders = 0;

/**
 * Points every test, and every process a test starts, at a scratch cache folder, so that a test
 * that names none never writes to the user's ~/.cache/skills-kernel. It is XDG_CACHE_HOME that is
 * set, not SKILLS_KERNEL_CACHE_DIR: a test that sets its own XDG_CACHE_HOME for a child then wins
 * (SKILLS_KERNEL_CACHE_DIR would override it), and one that sets SKILLS_KERNEL_CACHE_DIR still does.
 */
export default async function setup(): Promise<() => Promise<void>> {
  scratch ??= mkdtemp(join(tmpdir(), "skills-kernel-test-cache-"));
  holders += 1;
  const folder = await scratch;
  process.env.XDG_CACHE_HOME = folder;
  delete process.env.SKILLS_KERNEL_CACHE_DIR;
  return async () => {
    holders -= 1;
    if (holders === 0) await rm(folder, { recursive: true, force: true });
  };
}
