import { spawnSync } from "node:child_process";

/**
 * SKILLS_KERNEL_TEST_WITHOUT=nginx,chromium,script makes the tests behave as on a machine without those
 * tools, so test/e2e/readme-test-command.test.ts can check the skip reasons a fresh machine prints
 * on one (CI's) that has them.
 */
export function absentByRequest(tool: string): boolean {
  return (process.env.SKILLS_KERNEL_TEST_WITHOUT ?? "").split(",").includes(tool);
}

/** script(1), which gives a child process a terminal (the banner, progress lines). */
export const HAS_SCRIPT = !absentByRequest("script") && spawnSync("script", ["--version"]).status === 0;

/** A title for a test that needs script(1): the skip reason only when it is missing. */
export function needsScript(title: string): string {
  return HAS_SCRIPT ? title : `${title} (skipped: script(1) is not installed)`;
}
