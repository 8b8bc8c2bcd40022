import { configDefaults, defineConfig } from "vitest/config";

/**
 * What needs more than Node and the sources: the built bundle (dist/), the test runtimes (Node 24,
 * Bun, Deno), a redis-server, nginx or the MCP conformance suite. A test outside test/e2e and
 * test/conformance that needs any of them is named *.e2e.test.ts, beside the unit tests of the
 * same code; test/unit-split.test.ts fails when a unit test reaches for one.
 */
const E2E = ["test/e2e/**/*.test.ts", "test/conformance/**/*.test.ts", "test/**/*.e2e.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here: end-to-end tests spawn real processes, so keep parallelism modest.
    pool: "forks",
    maxWorkers: 2,
    // After the summary: one line per reason tests were skipped for (test/skip-reasons.reporter.ts).
    reporters: ["default", "./test/skip-reasons.reporter.ts"],
    // No test writes to the user's cache folder (the file says why it sets XDG_CACHE_HOME).
    globalSetup: ["test/scratch-cache.setup.ts"],
    projects: [
      // `npm run test:unit`: no bundle, runtimes, Redis, nginx or network.
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...E2E],
          globalSetup: ["test/unit-files.setup.ts"],
        },
      },
      // `npm run test:e2e`, with each example plugin package's own tests (they import the built package).
      { extends: true, test: { name: "e2e", include: E2E, exclude: configDefaults.exclude } },
      "examples/plugins/*",
    ],
  },
});
