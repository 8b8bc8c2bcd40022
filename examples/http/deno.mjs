// Deno.serve with the kernel's own fetch handler: MCP at /mcp, health checks at /healthz and
// /readyz, on a port of the app's choosing.
//
//   deno run -A examples/http/deno.mjs [PORT]
//
// The repository's deno.json opts in to Deno's "no-legacy-abort"; an app of its own needs the
// same in its deno.json, or --unstable-no-legacy-abort (docs/deployment.md says why).
import { createKernel, createLogger } from "skills-kernel";

const kernel = await createKernel({
  config: { plugins: [["fs", { roots: [{ path: "../skills", source: "examples" }] }], "search-skills", "read-skill"] },
  baseDir: new URL(".", import.meta.url).pathname,
  logger: createLogger("warn"),
});

const server = Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.args[0] ?? 0),
    onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
  },
  // The caller's address puts its requests under its own work bounds.
  (request, info) => kernel.fetch(request, info.remoteAddr.hostname),
);

// Shut down in order: the kernel closes its sessions (ending their streams), then the server.
Deno.addSignalListener("SIGTERM", async () => {
  await kernel.close();
  await server.shutdown();
});
