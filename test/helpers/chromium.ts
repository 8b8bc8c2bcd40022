import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { importFromRuntimes } from "./runtimes.js";
import { absentByRequest } from "./tools.js";

/** A Chromium the page tests can drive, or why there is none (the tests' skip reason). */
export type ChromiumFound =
  | { readonly path: string; readonly reason?: undefined }
  | { readonly path?: undefined; readonly reason: string };

/** Debian's package, the fallback when the one from npm cannot start here. */
const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** Whether the binary starts at all: a missing shared library fails here, not in the middle of a test. */
function starts(path: string): string | undefined {
  const run = spawnSync(path, ["--headless", "--no-sandbox", "--version"], { encoding: "utf8", timeout: 30_000 });
  if (run.status === 0) return undefined;
  return (run.stderr || run.error?.message || `exit ${run.status}`).trim().split("\n")[0];
}

/**
 * The Chromium that `@sparticuz/chromium` ships inside its npm package (unpacked to the temp
 * folder on first use), so `npm test` on a fresh machine has a browser; Debian's when that one
 * cannot start here. The package is in test/runtimes, which `npm test` installs.
 */
export async function findChromium(): Promise<ChromiumFound> {
  if (absentByRequest("chromium")) return { reason: "no Chromium (SKILLS_KERNEL_TEST_WITHOUT names it)" };
  const failures: string[] = [];
  try {
    const { default: packaged } = (await importFromRuntimes("@sparticuz/chromium")) as {
      default: { executablePath(): Promise<string> };
    };
    const path = await packaged.executablePath();
    const failure = starts(path);
    if (!failure) return { path };
    failures.push(`@sparticuz/chromium's does not start: ${failure}`);
  } catch (error) {
    failures.push(`@sparticuz/chromium cannot be unpacked: ${(error as Error).message}`);
  }
  if (existsSync(DEBIAN_CHROMIUM)) {
    const failure = starts(DEBIAN_CHROMIUM);
    if (!failure) return { path: DEBIAN_CHROMIUM };
    failures.push(`${DEBIAN_CHROMIUM} does not start: ${failure}`);
  } else failures.push(`${DEBIAN_CHROMIUM} is absent`);
  return { reason: `no Chromium starts here (${failures.join("; ")})` };
}
