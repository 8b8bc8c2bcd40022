import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, type Runtime } from "../helpers/cli.js";

const CONFIG = fileURLToPath(new URL("../fixtures/bundle/zod3-tool.config.mjs", import.meta.url));

// The bundle swaps the MCP SDK's zod 3 imports for a stand-in that loads them on first use
// (scripts/build.mjs, src/kernel/lazy-zod-v3.ts). A plugin's zod 3 tool schema must still be
// listed as JSON Schema and validate calls.
describe.each(Object.keys(RUNTIMES) as Runtime[])("a plugin's zod 3 tool schema through the bundle on %s", (runtime) => {
  it("is listed as JSON Schema, takes a valid call and refuses an invalid one", async () => {
    const { client } = await connectCli(["--config", CONFIG], { runtime });
    try {
      const { tools } = await client.listTools();
      const echo = tools.find((tool) => tool.name === "echo_word");
      expect(echo?.inputSchema).toMatchObject({
        type: "object",
        properties: { word: { type: "string", minLength: 2 }, times: { type: "integer" } },
        required: ["word"],
      });
      expect(await client.callTool({ name: "echo_word", arguments: { word: "hi", times: 2 } })).toMatchObject({
        content: [{ type: "text", text: "hihi" }],
      });
      const refused = await client.callTool({ name: "echo_word", arguments: { word: "h" } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
