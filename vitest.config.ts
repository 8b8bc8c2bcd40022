import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here: end-to-end tests spawn real processes, so keep parallelism modest.
    pool: "forks",
    maxWorkers: 2,
    // The kernel's own tests, and each example plugin package's (each with its own vitest.config.ts).
    projects: [{ extends: true, test: { name: "skills-kernel", include: ["test/**/*.test.ts"] } }, "examples/plugins/*"],
  },
});
