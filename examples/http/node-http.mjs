// An existing node:http app that mounts skills under /skills: MCP at /skills/mcp, health checks
// at /skills/healthz and /skills/readyz, beside the app's own routes.
//
//   node examples/http/node-http.mjs [PORT]
import { createServer } from "node:http";
import { createHttpHandler, createKernel, createLogger } from "skills-kernel";

const kernel = await createKernel({
  config: { plugins: [["fs", { roots: [{ path: "../skills", source: "examples" }] }], "search-skills", "read-skill"] },
  baseDir: new URL(".", import.meta.url).pathname,
  logger: createLogger("warn"),
});
// basePath: this app hands over the whole URL, so the handler strips the prefix itself.
const skills = createHttpHandler(kernel, { basePath: "/skills" });

const server = createServer((req, res) => {
  if (req.url === "/skills" || req.url?.startsWith("/skills/")) return skills.handleNodeRequest(req, res);
  res.writeHead(200, { "content-type": "text/plain" }).end("the app's own page\n");
});
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});

// Shut down in order: stop accepting, let skills finish what is in flight, then the kernel.
process.once("SIGTERM", async () => {
  server.close();
  await kernel.close();
  server.closeAllConnections();
});
