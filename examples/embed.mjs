// Embedding the kernel in your own app: boot it from a config object, then talk to it through
// any MCP transport. Here an in-memory link and the official SDK client; in a server you would
// hand kernel.createMcpServer() to a transport per connection instead.
//
//   node examples/embed.mjs "write a commit message"
//
// Outside this repository, install @modelcontextprotocol/client beside skills-kernel: an optional
// peer dependency of the package, which never imports it itself.
import { createKernel, createLogger } from "skills-kernel";

const { Client, InMemoryTransport } = await import("@modelcontextprotocol/client").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  console.error("embed.mjs: the MCP client is not installed: npm install @modelcontextprotocol/client");
  process.exit(1);
});

const kernel = await createKernel({
  config: {
    plugins: [["fs", { roots: [{ path: "./skills", source: "examples" }] }], "search-skills", "read-skill"],
  },
  // Relative roots resolve from here, as they would from a config file's folder.
  baseDir: new URL(".", import.meta.url).pathname,
  logger: createLogger("warn"),
});

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await kernel.createMcpServer().connect(serverSide);
const client = new Client({ name: "embed-example", version: "1.0.0" });
await client.connect(clientSide);

const query = process.argv[2] ?? "write a commit message";
const found = await client.callTool({ name: "search_skills", arguments: { query, limit: 1 } });
const best = found.structuredContent.results[0];
if (best) {
  const skill = await client.callTool({ name: "read_skill", arguments: { skill_name: best.id } });
  console.log(`${best.id} (${best.match_quality}): ${skill.structuredContent.files.length} file(s) to fetch`);
} else {
  console.log(`no skill fits "${query}"`);
}

await client.close();
await kernel.close();
