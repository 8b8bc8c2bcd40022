// A Bun.serve app that mounts skills under /skills.
//
//   bun examples/http/bun.mjs [PORT]
import { createHttpHandler, createKernel, createLogger } from "skills-kernel";

const kernel = await createKernel({
  config: { plugins: [["fs", { roots: [{ path: "../skills", source: "examples" }] }], "search-skills", "read-skill"] },
  baseDir: new URL(".", import.meta.url).pathname,
  logger: createLogger("warn"),
});
const skills = createHttpHandler(kernel, { basePath: "/skills" });

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.argv[2] ?? 0),
  // MCP event streams outlast Bun's default 10 s idle timeout.
  idleTimeout: 60,
  fetch(request, server) {
    const { pathname } = new URL(request.url);
    // The caller's address puts its requests under its own work bounds.
    if (pathname === "/skills" || pathname.startsWith("/skills/"))
      return skills.fetch(request, server.requestIP(request)?.address);
    return new Response("the app's own page\n");
  },
});
console.log(`listening on http://127.0.0.1:${server.port}`);

process.once("SIGTERM", async () => {
  await kernel.close();
  await server.stop(true);
});
