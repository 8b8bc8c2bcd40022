/**
 * SKILLS_KERNEL_TEST_WITHOUT=nginx,chromium makes the tests behave as on a machine without those
 * tools, so test/e2e/readme-test-command.test.ts can check the skip reasons a fresh machine prints
 * on one (CI's) that has them.
 */
export function absentByRequest(tool: string): boolean {
  return (process.env.SKILLS_KERNEL_TEST_WITHOUT ?? "").split(",").includes(tool);
}
