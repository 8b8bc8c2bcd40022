// A Hono app (on Node through @hono/node-server) that mounts skills under /skills. Hono's mount
// strips the prefix, so the kernel's own fetch handler serves it as is.
//
//   node examples/http/hono.mjs [PORT]
//
// Outside this repository, install hono and @hono/node-server beside skills-kernel: optional peer
// dependencies of the package, which never imports them itself.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createKernel, createLogger } from "skills-kernel";

const kernel = await createKernel({
  config: { plugins: [["fs", { roots: [{ path: "../skills", source: "examples" }] }], "search-skills", "read-skill"] },
  baseDir: new URL(".", import.meta.url).pathname,
  logger: createLogger("warn"),
});

const app = new Hono();
app.get("/", (c) => c.text("the app's own page\n"));
app.mount("/skills", kernel.fetch);

const server = serve({ fetch: app.fetch, port: Number(process.argv[2] ?? 0), hostname: "127.0.0.1" }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});

process.once("SIGTERM", async () => {
  server.close();
  await kernel.close();
  server.closeAllConnections();
});
