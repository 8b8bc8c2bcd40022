import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { postFrom } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

// Issue 34, item 5, through the bundle: while another client is served, a client whose request
// kept the server busy waits before its next one starts (maxWorkShare), so the other's call, sent
// after it, is answered first. maxWorkShare 0.05 makes that wait 19 times the work it follows.
let base: string;
let config: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-work-share-"));
  await mkdir(join(base, "big", "references"), { recursive: true });
  await writeFile(
    join(base, "big", "SKILL.md"),
    "---\nname: big\ndescription: One large reference file.\n---\n# Big\n",
  );
  await writeFile(join(base, "big", "references", "large.md"), "A line of a large reference file.\n".repeat(32 * 1024));
  await mkdir(join(base, "small"));
  await writeFile(join(base, "small", "SKILL.md"), "---\nname: small\ndescription: A short skill.\n---\n# Small\n");
  config = join(base, "share.config.json");
  const roots = [{ path: base, source: "share" }];
  await writeFile(
    config,
    JSON.stringify({
      plugins: [
        ["fs", { roots, watch: false }],
        "read-skill",
        "fetch-skill-files",
        ["http", { stateless: true, maxWorkShare: 0.05 }],
      ],
    }),
  );
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const REVISION = { "mcp-protocol-version": "2025-11-25" };
const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const READ_SMALL = call("read_skill", { skill_name: "small" });
const FETCH_LARGE = call("fetch_skill_files", { skill_name: "big", file_paths: ["references/large.md"] });

describe.each(Object.keys(RUNTIMES) as Runtime[])("a client's share of the server's time on %s", (runtime) => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(["--config", config], { runtime });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (localAddress: string, body: string) => postFrom(server.mcpUrl, localAddress, body, REVISION);

  it("answers another client's call before the next one of a client that kept the server busy", {
    timeout: 90_000,
  }, async () => {
    // Several large fetches in a row, alone on the server: what the busy client owes adds up, so its
    // rest outlasts the wait below even on a runtime that answers each one quickly.
    for (let i = 0; i < 4; i++) expect((await post("127.0.0.2", FETCH_LARGE)).status).toBe(200);
    expect((await post("127.0.0.1", READ_SMALL)).status).toBe(200);
    const answered: string[] = [];
    const busyClientsNext = post("127.0.0.2", READ_SMALL).then((response) => {
      answered.push("the busy client's");
      return response;
    });
    // Long enough for that small call to be answered, were it not held back.
    await sleep(100);
    expect((await post("127.0.0.1", READ_SMALL)).status).toBe(200);
    answered.push("the other client's");
    expect((await busyClientsNext).status).toBe(200);
    expect(answered).toEqual(["the other client's", "the busy client's"]);
  });
});
