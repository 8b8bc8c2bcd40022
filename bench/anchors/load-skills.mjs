// What the first anchor servers do at start: walk a root and read every SKILL.md, parsing its
// frontmatter with the same yaml package skills-kernel uses. Kept plain on purpose: this is how a
// small skills server is usually written, and a synchronous loop is the fastest plain way here
// (an unbounded asynchronous walk costs more CPU and runs out of file descriptors on large roots).
// It walks what skills-kernel walks: every folder but .git and node_modules, hidden ones included,
// and inside skill folders too (skills nest in other skills' references/), so both serve the same
// skills.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";

export const SKIPPED = new Set([".git", "node_modules"]);

export function loadSkills(root) {
  const skills = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      if (entry.name !== "SKILL.md") continue;
      const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(path, "utf8"));
      if (!match) continue;
      try {
        const data = parse(match[1]);
        if (typeof data?.name === "string" && typeof data.description === "string")
          skills.push({ name: data.name, description: data.description, path: relative(root, dir) });
      } catch {
        // An unparseable frontmatter: skipped, as every server does.
      }
    }
  };
  walk(root);
  return skills;
}

/** The MCP server every anchor runs: one `search` tool over stdio (the SDK's documented pattern), served once the skills are in. */
export async function serveSearch(name, search) {
  const { McpServer } = await import("@modelcontextprotocol/server");
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  const { z } = await import("zod");
  serveStdio(() => {
    const server = new McpServer({ name, version: "0.0.0" });
    server.registerTool(
      "search",
      {
        description: "Search skills",
        inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }),
      },
      async ({ query, limit = 5 }) => ({
        content: [
          {
            type: "text",
            text: JSON.stringify(
              search(query, limit).map(({ name, description, path }) => ({ name, description, path })),
            ),
          },
        ],
      }),
    );
    return server;
  });
}
