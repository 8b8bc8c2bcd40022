import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The unit project's test files, as its own globs find them (absolute paths). */
    unitFiles: string[];
  }
}

/** Hands test/unit-split.test.ts the unit project's files, so it checks what the config includes. */
export default async function setup(project: TestProject): Promise<void> {
  const { testFiles } = await project.globTestFiles();
  project.provide("unitFiles", testFiles);
}
