import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, onTestFinished } from "vitest";
import { ConfigError } from "../../src/kernel/errors.js";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The package.json every temp project gets unless a test gives its own: it ends config searches there. */
const DEFAULT_PACKAGE_JSON = JSON.stringify({ name: "temp-project", private: true, type: "module" });

/**
 * A temp folder holding `files` (relative path -> content), removed when the test ends. Its real
 * path is returned (macOS's tmpdir is a symlink) so it compares equal to resolved paths.
 */
export async function tempProject(files: Record<string, string>): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "skills-kernel-config-")));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const all = "package.json" in files ? files : { "package.json": DEFAULT_PACKAGE_JSON, ...files };
  for (const [relative, content] of Object.entries(all)) {
    const file = path.join(dir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return dir;
}

/** Asserts `promise` rejects with a one-line ConfigError that mentions each of `parts`. */
export async function expectConfigError(promise: Promise<unknown>, ...parts: string[]): Promise<ConfigError> {
  const error = await promise.then(
    () => expect.fail("expected a ConfigError, but it resolved"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const { message, exitCode } = error as ConfigError;
  expect(exitCode).toBe(2);
  expect(message).not.toMatch(/[\r\n]/);
  for (const part of parts) expect(message).toContain(part);
  return error as ConfigError;
}
