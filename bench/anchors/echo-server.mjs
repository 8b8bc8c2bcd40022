// The floor for search latency over stdio: a `search` tool on the SDK's documented McpServer +
// serveStdio that reads no skill and answers with an empty list at once, so its time per call is
// the protocol's and the SDK's own.
//
//   node bench/anchors/echo-server.mjs
import { serveSearch } from "./load-skills.mjs";

await serveSearch("echo-anchor", () => []);
