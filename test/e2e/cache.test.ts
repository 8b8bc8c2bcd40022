// The cache through the shipped bundle, against redis-server processes of the tests' own: Redis
// killed under load, down at start, shared by two servers, and, on every runtime, a restart that
// reads only what changed and the cache-stats command.
import { cp, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import { createClient } from "@keyv/redis";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client, CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, RUNTIMES, connectCli, runCli, type Runtime } from "../helpers/cli.js";
import { freePort } from "../helpers/free-port.js";
import { TestRedis } from "../helpers/redis.js";
import { waitFor } from "../helpers/wait.js";

let work: string;
let skills: string;

/** Ages every file under `dir` past the cache's racy window, as files on a disk usually are. */
async function age(dir: string) {
  const past = new Date(Date.now() - 60_000);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    await utimes(join(entry.parentPath, entry.name), past, past);
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-cache-"));
  // A package.json stops the config search here, so the repo's own config is never picked up.
  await writeFile(join(work, "package.json"), "{}");
  skills = join(work, "skills");
  await cp(join(REPO_ROOT, "examples/skills"), skills, { recursive: true });
  await age(skills);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

interface Stats {
  backend: string;
  state: string;
  hits: number;
  misses: number;
  errors: number;
  bypassed: number;
  entries: Record<string, number> | null;
}

async function stats(client: Client): Promise<Stats> {
  const result = (await client.callTool({ name: "get_cache_stats", arguments: {} })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.structuredContent as unknown as Stats;
}

const cacheWarnings = (stderr: string) => stderr.split("\n").filter((line) => /warn: .*(Redis|redis cache)/.test(line));

describe("Redis killed mid-run", () => {
  it("fails no call: degraded while Redis is gone, connected once it is back", async () => {
    const redis = await TestRedis.start();
    const dir = await mkdtemp(join(work, "kill-"));
    await cp(skills, dir, { recursive: true });
    await age(dir);
    const server = await connectCli(["--skills-dir", dir, "--cache", redis.url], { cwd: work });
    try {
      await waitFor("the cache to fill", async () =>
        Object.values((await stats(server.client)).entries ?? {}).some((n) => n > 0),
      );

      let stop = false;
      let calls = 0;
      const failures: string[] = [];
      const stream = (async () => {
        for (let i = 0; !stop; i++) {
          try {
            const result = (await (i % 2 === 0
              ? server.client.callTool({ name: "search_skills", arguments: { query: "commit message" } })
              : server.client.callTool({
                  name: "read_skill",
                  arguments: { skill_name: "readme-reviewer" },
                }))) as CallToolResult;
            if (result.isError) failures.push(JSON.stringify(result.content));
          } catch (error) {
            failures.push(String(error));
          }
          calls++;
        }
      })();

      await waitFor("calls before the kill", () => calls >= 20);
      await redis.kill();
      const callsAtKill = calls;
      await waitFor("degraded", async () => (await stats(server.client)).state === "degraded");
      // A skill added while Redis is down is read from disk and served: the cache is skipped.
      await cp(join(dir, "readme-reviewer"), join(dir, "outage-skill"), { recursive: true });
      await writeFile(
        join(dir, "outage-skill", "SKILL.md"),
        "---\nname: outage-skill\ndescription: Added while Redis was down.\n---\n# Outage\n",
      );
      await waitFor("the new skill", async () => {
        const listed = (await server.client.callTool({ name: "list_skills", arguments: {} })) as CallToolResult;
        return JSON.stringify(listed.structuredContent).includes("outage-skill");
      });
      const outage = await stats(server.client);
      expect(outage.bypassed + outage.errors).toBeGreaterThan(0);

      await redis.start();
      await waitFor("connected again", async () => (await stats(server.client)).state === "connected");
      stop = true;
      await stream;
      expect(failures).toEqual([]);
      expect(calls - callsAtKill).toBeGreaterThan(0);
      // One warning for the outage, however many failures it took.
      expect(cacheWarnings(server.stderr())).toHaveLength(1);
    } finally {
      await server.client.close();
      await redis.kill();
    }
  });
});

describe("Redis down at start", () => {
  it("serves from the sources, warns once, and connects when Redis comes up", async () => {
    const port = await freePort();
    const server = await connectCli(["--skills-dir", skills, "--cache", `redis://127.0.0.1:${port}/0`], { cwd: work });
    let redis: TestRedis | undefined;
    try {
      const listed = (await server.client.callTool({ name: "list_skills", arguments: {} })) as CallToolResult;
      expect(listed.structuredContent).toMatchObject({ total: 3 });
      expect(["degraded", "reconnecting"]).toContain((await stats(server.client)).state);
      const warnings = cacheWarnings(server.stderr());
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0 .*ECONNREFUSED.*reconnecting in the background/,
      );

      redis = await TestRedis.startOn(port);
      await waitFor("connected", async () => (await stats(server.client)).state === "connected");
    } finally {
      await server.client.close();
      await redis?.kill();
    }
  });
});

describe("Redis restarted empty", () => {
  it("gets the running server's snapshot written again once it is back", async () => {
    const redis = await TestRedis.start();
    const dir = await mkdtemp(join(work, "emptied-"));
    await cp(skills, dir, { recursive: true });
    await age(dir);
    const server = await connectCli(["--skills-dir", dir, "--cache", redis.url], { cwd: work });
    const snapshotKept = async () => Object.values((await stats(server.client)).entries ?? {}).includes(2);
    try {
      await server.client.callTool({ name: "list_skills", arguments: {} });
      // The snapshot's head and its one chunk.
      await waitFor("the snapshot in Redis", snapshotKept);
      await redis.kill();
      await redis.start();
      // Nothing changed on disk: only the lost snapshot makes the server write it again.
      await waitFor("the snapshot written again", snapshotKept);
      const listed = (await server.client.callTool({ name: "list_skills", arguments: {} })) as CallToolResult;
      expect(listed.structuredContent).toMatchObject({ total: 3 });
    } finally {
      await server.client.close();
      await redis.kill();
    }
  });

  it("gets the snapshot written again after a FLUSHALL, which no reconnection announces", async () => {
    const redis = await TestRedis.start();
    const dir = await mkdtemp(join(work, "flushed-"));
    await cp(skills, dir, { recursive: true });
    await age(dir);
    const server = await connectCli(["--skills-dir", dir, "--cache", redis.url], { cwd: work });
    const snapshotKept = async () => Object.values((await stats(server.client)).entries ?? {}).includes(2);
    try {
      await server.client.callTool({ name: "list_skills", arguments: {} });
      await waitFor("the snapshot in Redis", snapshotKept);
      expect(await redisCommand(redis.port, "FLUSHALL")).toBe("+OK");
      expect(await snapshotKept()).toBe(false);
      // The connection never dropped: the server finds the snapshot gone by looking for it.
      await waitFor("the snapshot written again", snapshotKept, 40_000);
    } finally {
      await server.client.close();
      await redis.kill();
    }
  });
});

/** One inline Redis command over a raw socket: its first reply line. */
function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let reply = "";
    socket.on("connect", () => socket.write(`${command}\r\n`));
    socket.on("data", (chunk) => {
      reply += chunk.toString("utf8");
      if (reply.includes("\r\n")) socket.end();
    });
    socket.on("close", () => resolve(reply.split("\r\n")[0]!));
    socket.on("error", reject);
  });
}

// Issue 34, item 7: a well-formed entry rewritten in Redis by someone without the server's
// secret is refused, so what it says never reaches an answer.
describe("entries changed in Redis", () => {
  it("a snapshot chunk rewritten with another description is refused, and the file on disk read", async () => {
    const redis = await TestRedis.start();
    const dir = await mkdtemp(join(work, "tampered-"));
    await cp(skills, dir, { recursive: true });
    await age(dir);
    const env = { XDG_CACHE_HOME: join(work, "xdg-tampered") };
    const list = () =>
      runCli(["list", "--format", "json", "--skills-dir", dir, "--cache", redis.url, "--log-level", "debug"], {
        cwd: work,
        env,
      });
    const raw = createClient({ url: redis.url });
    try {
      const first = await list();
      expect(first.code).toBe(0);
      await raw.connect();
      let rewritten = 0;
      for (const key of await raw.keys("*snapshot*#*")) {
        const stored = (await raw.get(key))!;
        // Sealed: "<mac>.<json>"; as an older release stored it: the JSON alone.
        const dot = stored.startsWith("{") ? -1 : stored.indexOf(".");
        const entry = JSON.parse(stored.slice(dot + 1)) as { value: unknown };
        const chunk = Array.isArray(entry.value) ? (entry.value[1] as string) : (entry.value as string);
        const records = brotliDecompressSync(Buffer.from(chunk, "base64")).toString("utf8");
        if (!records.includes("Reviews a project README")) continue;
        const planted = brotliCompressSync(
          Buffer.from(records.replace(/Reviews a project README[^"]*/, "Planted through Redis.")),
        ).toString("base64");
        entry.value = Array.isArray(entry.value) ? [entry.value[0], planted] : planted;
        await raw.set(key, `${stored.slice(0, dot + 1)}${JSON.stringify(entry)}`);
        rewritten++;
      }
      expect(rewritten).toBe(1);
      const second = await list();
      expect(second.code).toBe(0);
      const descriptions = (JSON.parse(second.stdout) as { skills: { description: string }[] }).skills.map(
        (skill) => skill.description,
      );
      expect(descriptions.join("\n")).not.toContain("Planted through Redis.");
      expect(descriptions.some((description) => description.startsWith("Reviews a project README"))).toBe(true);
      expect(second.stderr).toContain("a cache entry without this server's seal was refused");
    } finally {
      await raw.close().catch(() => undefined);
      await redis.kill();
    }
  });
});

describe("two servers on one Redis", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterAll(async () => {
    await redis.kill();
  });

  it("the second one's first reads are hits on what the first one cached", async () => {
    const first = await connectCli(["--skills-dir", skills, "--cache", redis.url], { cwd: work });
    try {
      await first.client.callTool({ name: "list_skills", arguments: {} });
      // The fs source's snapshot of its root: its head missed.
      expect(await stats(first.client)).toMatchObject({ misses: 1, hits: 0 });
      // The snapshot's head and its one chunk.
      await waitFor("the first server's entries", async () =>
        Object.values((await stats(first.client)).entries ?? {}).includes(2),
      );
      const second = await connectCli(["--skills-dir", skills, "--cache", redis.url], { cwd: work });
      try {
        const listed = (await second.client.callTool({ name: "list_skills", arguments: {} })) as CallToolResult;
        expect(listed.structuredContent).toMatchObject({ total: 3 });
        expect(await stats(second.client)).toMatchObject({ backend: "redis", state: "connected", hits: 2, misses: 0 });
      } finally {
        await second.client.close();
      }
    } finally {
      await first.client.close();
    }
  });

  it.each(Object.keys(RUNTIMES) as Runtime[])(
    "a restart on %s reads only the SKILL.md changed since the last run's snapshot",
    async (runtime) => {
      const dir = await mkdtemp(join(work, `restart-${runtime}-`));
      await cp(skills, dir, { recursive: true });
      await age(dir);
      const list = async () => {
        const run = await runCli(
          ["list", "--format", "json", "--skills-dir", dir, "--cache", redis.url, "--log-level", "debug"],
          { cwd: work, runtime },
        );
        expect(run.code).toBe(0);
        const filesRead = /: (\d+) of 3 SKILL\.md files read/.exec(run.stderr);
        const listed = JSON.parse(run.stdout) as { skills: { name: string; description: string }[] };
        return { filesRead: Number(filesRead?.[1]), descriptions: listed.skills.map((skill) => skill.description) };
      };

      expect((await list()).filesRead).toBe(3);
      expect((await list()).filesRead).toBe(0);
      const changed = join(dir, "readme-reviewer", "SKILL.md");
      await writeFile(
        changed,
        (await readFile(changed, "utf8")).replace(/^description: .*$/m, "description: Edited while no server ran."),
      );
      // Aged alone: setting a file's times changes its ctime, so ageing the others would change them too.
      const past = new Date(Date.now() - 60_000);
      await utimes(changed, past, past);
      const afterEdit = await list();
      expect(afterEdit.filesRead).toBe(1);
      expect(afterEdit.descriptions).toContain("Edited while no server ran.");
    },
  );

  it.each(Object.keys(RUNTIMES) as Runtime[])(
    "cache-stats answers on %s, for Redis and the default",
    async (runtime) => {
      const viaRedis = await runCli(["cache-stats", "--json", "--skills-dir", skills, "--cache", redis.url], {
        cwd: work,
        runtime,
      });
      expect(viaRedis.stderr).toBe("");
      expect(viaRedis.code).toBe(0);
      const answer = JSON.parse(viaRedis.stdout);
      expect(answer).toMatchObject({
        backend: "redis",
        target: `${redis.url}`,
        state: "connected",
        errors: 0,
        last_error: null,
      });
      expect(typeof answer.uptime_seconds).toBe("number");

      const byDefault = await runCli(["cache-stats", "--skills-dir", skills], { cwd: work, runtime });
      expect(byDefault.code).toBe(0);
      expect(byDefault.stdout).toMatch(/^backend: memory \(this process/);
      expect(byDefault.stdout).toMatch(/\nstate: connected\n/);
    },
  );
});

describe("the default in-process cache", () => {
  it("holds no second copy of the fs source's reads: they only pay where they outlive the process", async () => {
    const server = await connectCli(["--skills-dir", skills], { cwd: work });
    try {
      const listed = (await server.client.callTool({ name: "list_skills", arguments: {} })) as CallToolResult;
      expect(listed.structuredContent).toMatchObject({ total: 3 });
      const answer = await stats(server.client);
      expect(answer).toMatchObject({ backend: "memory", hits: 0, misses: 0 });
      expect(Object.keys(answer.entries ?? {}).filter((namespace) => namespace.startsWith("fs/"))).toEqual([]);
    } finally {
      await server.client.close();
    }
  });
});

describe("--cache mistakes", () => {
  it.each([
    ["redis", /--cache must be "memory" or a redis:\/\/HOST:PORT\[\/DB\] URL, not "redis"/],
    ["redis://host:6379/zero", /--cache: the database in "redis:\/\/host:6379\/zero" must be a number/],
    ["", /--cache needs a value/],
  ])("refuses --cache %j with exit 2 and one line", async (value, pattern) => {
    const result = await runCli(["list", "--cache", value], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
  });

  it("refuses a bad url in the config, naming the plugin", async () => {
    const config = join(work, "bad-cache.json");
    await writeFile(config, JSON.stringify({ plugins: [["cache-redis", { url: "http://nope" }]] }));
    const result = await runCli(["list", "--config", config], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cache-redis.*not a redis:\/\/ or rediss:\/\/ URL/);
  });
});
