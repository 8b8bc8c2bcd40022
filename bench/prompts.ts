// What the catalog summary and the prompts cost over the 700-skill corpus: how many skills the
// instructions name at each budget, and the size of prompts/list with the default 500 prompts.
// In-process, so it measures sizes, not time.
//
//   npx tsx bench/prompts.ts [--corpus ../shared/corpus]
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { createKernel } from "../src/create-kernel.js";
import { createLogger } from "../src/kernel/logger.js";
import { CORPUS } from "./synthetic-catalog.js";

const { values } = parseArgs({ options: { corpus: { type: "string", default: CORPUS } } });
if (!existsSync(values.corpus)) {
  console.log(`no corpus at ${values.corpus}: nothing to measure`);
  process.exit(0);
}

for (const maxChars of [4_000, 16_000, 64_000]) {
  const kernel = await createKernel({
    config: {
      plugins: [["fs", { roots: [values.corpus], maxDepth: 8 }], "skill-prompts", ["catalog-summary", { maxChars }]],
    },
    logger: createLogger("silent"),
    configSource: "bench",
  });
  await kernel.catalog.ready();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(clientSide);
  const summary = (client.getInstructions() ?? "").split("\n\n").slice(1).join("\n\n");
  // A skill's line: `- id: …`, or an area's example, indented.
  const named = summary.split("\n").filter((line) => /^ *- [^ ]+: /.test(line)).length;
  const { prompts } = await client.listPrompts();
  console.log(
    `maxChars ${maxChars}: ${kernel.catalog.list().length} skills, ${named} named in ${summary.length} characters; ` +
      `prompts/list: ${prompts.length} prompts, ${JSON.stringify(prompts).length} bytes`,
  );
  await client.close();
  await kernel.close();
}
