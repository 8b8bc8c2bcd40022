// The plain server the discovery benchmark (bench/discovery.ts) compares serving with: node:http
// answering GET from the folder `skills-kernel export` wrote, each file read with fs.readFile per
// request, as a static host would. It prints "listening on URL" on stderr, as the kernel does.
//
//   node bench/anchors/static-site-server.mjs SITE_DIR
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const root = process.argv[2];
const types = { ".json": "application/json", ".gz": "application/gzip", ".md": "text/markdown; charset=utf-8" };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
  if (path.includes("..")) return void res.writeHead(400).end();
  try {
    const body = await readFile(join(root, path));
    res.writeHead(200, {
      "content-type": types[extname(path)] ?? "application/octet-stream",
      "content-length": body.length,
    });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
server.listen(0, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${server.address().port}/`));
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
