// The plain server the greedy-client benchmark (bench/work-bounds.mjs) compares with: the SDK v2's
// documented HTTP pattern (createMcpHandler, an McpServer per request, on node:http) serving
// `read_skill` and `fetch_skill_files` straight from a skills folder, with no bound on work,
// answer size or clients. It prints "listening on URL" on stderr, as the kernel does.
//
//   node bench/anchors/files-http-server.mjs SKILLS_DIR
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join, normalize } from "node:path";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const root = process.argv[2];
/** A file of a skill, refused when its path climbs out of the skill's folder. */
const fileOf = (skill, path) => {
  const relative = normalize(path);
  if (relative.startsWith("..") || skill.includes("/") || skill.includes(".."))
    throw new Error(`not a file of ${skill}: ${path}`);
  return join(root, skill, relative);
};

const factory = () => {
  const server = new McpServer({ name: "plain-files", version: "1.0.0" });
  server.registerTool(
    "read_skill",
    { description: "Read a skill's SKILL.md", inputSchema: z.object({ skill_name: z.string() }) },
    async ({ skill_name }) => ({
      content: [{ type: "text", text: await readFile(fileOf(skill_name, "SKILL.md"), "utf8") }],
    }),
  );
  server.registerTool(
    "fetch_skill_files",
    {
      description: "Fetch files of a skill",
      inputSchema: z.object({ skill_name: z.string(), file_paths: z.array(z.string()) }),
    },
    async ({ skill_name, file_paths }) => ({
      content: await Promise.all(
        file_paths.map(async (path) => ({ type: "text", text: await readFile(fileOf(skill_name, path), "utf8") })),
      ),
    }),
  );
  return server;
};

const handler = toNodeHandler(createMcpHandler(factory));
const server = createServer((req, res) => void handler(req, res));
server.listen(0, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${server.address().port}/mcp`));
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
