/** Kept in step with package.json by test/version.test.ts; a constant keeps it bundle- and runtime-neutral. */
export const VERSION = "0.1.0";
