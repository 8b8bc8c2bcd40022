// Warm starts through the shipped bundle under the default in-process cache: the fs source's
// snapshots and the search index kept in the user's cache folder, driven by the official MCP
// client. A warm start answers as a cold one; what changed on disk between runs is seen; a cache
// entry of another release, truncated or holding another root's data is ignored; two servers
// starting together on one cache folder both answer.
import { createHash } from "node:crypto";
import { readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { connectCli, runCli, type Runtime } from "../helpers/cli.js";
import { waitFor } from "../helpers/wait.js";
import { age, skillMd, tempDir, writeSkillFile } from "../plugins/sources/fs/files.js";

const SKILLS = {
  "pdf-tables": "Extract tables from PDF files into CSV.",
  "commit-message": "Write a conventional commit message for staged changes.",
  "docker-compose": "Write docker compose files for local development stacks.",
  "sql-review": "Review SQL migrations for locking and data loss.",
};

async function skillsRoot(): Promise<string> {
  const root = await tempDir();
  for (const [name, description] of Object.entries(SKILLS))
    await writeSkillFile(root, name, skillMd(name, description));
  await age(root);
  return root;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** One stdio server's answers to list, two searches and a read, with its debug log. */
async function answers(root: string, cache: string, extra: readonly string[] = [], runtime: Runtime = "node") {
  const server = await connectCli(["--skills-dir", root, "--log-level", "debug", ...extra], {
    env: { XDG_CACHE_HOME: cache },
    runtime,
  });
  try {
    const call = async (name: string, args: Record<string, unknown>) =>
      text((await server.client.callTool({ name, arguments: args })) as CallToolResult);
    return {
      list: await call("list_skills", { format: "json" }),
      searches: [
        await call("search_skills", { query: "pdf tables to csv" }),
        await call("search_skills", { query: "write commit message", limit: 3 }),
      ],
      read: await call("read_skill", { name: "pdf-tables" }),
      log: () => server.stderr(),
    };
  } finally {
    await server.client.close();
  }
}

/** SKILL.md files the load read, from the fs source's debug line. */
function filesRead(log: string): number {
  return Number(/: (\d+) of \d+ SKILL\.md files read/.exec(log)![1]);
}

const indexLoaded = (log: string) => /loaded the saved index of \d+ skills/.test(log);

/** The cache folder's files under `sub` (snapshots or indexes). */
async function cacheFiles(cache: string, sub: string): Promise<string[]> {
  const dir = join(cache, "skills-kernel", sub);
  return (await readdir(dir)).filter((name) => !name.endsWith(".tmp")).map((name) => join(dir, name));
}

/** The file a snapshot head of `root` is kept in (src/remote/disk-cache.ts names files after their key). */
function headFile(cache: string, root: string): string {
  const key = `fs/snapshot-v2@${VERSION}\u000065536/262144:${root}`;
  return join(
    cache,
    "skills-kernel",
    "snapshots",
    `${createHash("sha256").update(key).digest("hex").slice(0, 40)}.json`,
  );
}

describe("warm starts from the user's cache folder", () => {
  it("answer as a cold start does, reading no SKILL.md and building no index", async () => {
    const [root, cache] = [await skillsRoot(), await tempDir()];
    const cold = await answers(root, cache);
    expect(filesRead(cold.log())).toBe(4);
    expect(indexLoaded(cold.log())).toBe(false);
    const warm = await answers(root, cache);
    expect(filesRead(warm.log())).toBe(0);
    expect(indexLoaded(warm.log())).toBe(true);
    expect({ ...warm, log: undefined }).toEqual({ ...cold, log: undefined });
    expect(cold.searches[0]).toContain("pdf-tables");
  });

  it("see a skill changed, added and removed between runs", async () => {
    const [root, cache] = [await skillsRoot(), await tempDir()];
    await answers(root, cache);
    await writeSkillFile(root, "pdf-tables", skillMd("pdf-tables", "Extract tables from scanned invoices."));
    await writeSkillFile(
      root,
      "kubernetes-deploy",
      skillMd("kubernetes-deploy", "Deploy services to Kubernetes clusters."),
    );
    await rm(join(root, "sql-review"), { recursive: true });
    const after = await answers(root, cache);
    expect(filesRead(after.log())).toBe(2);
    expect(after.list).toContain("scanned invoices");
    expect(after.list).toContain("kubernetes-deploy");
    expect(after.list).not.toContain("sql-review");
    expect(after.searches[0]).toContain("pdf-tables");
    // Another set of skills: the saved index is not this one's.
    expect(indexLoaded(after.log())).toBe(false);
    const search = await runCli(["search", "kubernetes", "--skills-dir", root], { env: { XDG_CACHE_HOME: cache } });
    expect(search.stdout).toContain("kubernetes-deploy");
  });

  it("ignore entries truncated, written by another release, or holding another root's data", async () => {
    const [root, other, cache] = [await skillsRoot(), await tempDir(), await tempDir()];
    await writeSkillFile(other, "other-skill", skillMd("other-skill", "A skill of another root."));
    await age(other);
    const cold = await answers(root, cache);

    // Another release's entries: the same files, each naming another version.
    for (const file of await cacheFiles(cache, "snapshots")) {
      await writeFile(file, (await readFile(file, "utf8")).replaceAll(`@${VERSION}`, "@0.0.0-other"));
    }
    for (const file of await cacheFiles(cache, "indexes")) {
      const bytes = await readFile(file);
      await writeFile(file, Buffer.from(bytes.toString("latin1").replace(`@${VERSION}`, "@0.0.0-other"), "latin1"));
    }
    const foreign = await answers(root, cache);
    expect(filesRead(foreign.log())).toBe(4);
    expect(indexLoaded(foreign.log())).toBe(false);
    expect({ ...foreign, log: undefined }).toEqual({ ...cold, log: undefined });

    // Truncated: every entry cut in half.
    for (const file of [...(await cacheFiles(cache, "snapshots")), ...(await cacheFiles(cache, "indexes"))]) {
      await truncate(file, Math.floor((await readFile(file)).length / 2));
    }
    const truncated = await answers(root, cache);
    expect(filesRead(truncated.log())).toBe(4);
    expect(indexLoaded(truncated.log())).toBe(false);
    expect({ ...truncated, log: undefined }).toEqual({ ...cold, log: undefined });

    // Another root's snapshot head put where this root's is looked for.
    await answers(other, cache);
    await writeFile(headFile(cache, root), await readFile(headFile(cache, other)));
    const swapped = await answers(root, cache);
    expect(filesRead(swapped.log())).toBe(4);
    expect(swapped.list).not.toContain("other-skill");
    expect({ ...swapped, log: undefined }).toEqual({ ...cold, log: undefined });
  });

  it("serve two servers starting together on one cache folder, and the next start from what they left", async () => {
    const [root, cache] = [await skillsRoot(), await tempDir()];
    const reference = await answers(root, await tempDir(), ["--no-disk-cache"]);
    const both = await Promise.all([answers(root, cache), answers(root, cache)]);
    for (const one of both) expect({ ...one, log: undefined }).toEqual({ ...reference, log: undefined });
    const next = await answers(root, cache);
    expect(filesRead(next.log())).toBe(0);
    expect({ ...next, log: undefined }).toEqual({ ...reference, log: undefined });
  });

  it("stay warm with Node, Bun and Deno taking turns on one cache folder, keeping one snapshot", async () => {
    const [root, cache] = [await skillsRoot(), await tempDir()];
    const cold = await answers(root, cache, [], "deno");
    expect(filesRead(cold.log())).toBe(4);
    const snapshots = (await cacheFiles(cache, "snapshots")).sort();
    // Deno reads timestamps coarser than Node and Bun: each reuses what the other wrote, as it is.
    for (const runtime of ["node", "bun", "deno", "node24", "node"] as const) {
      const warm = await answers(root, cache, [], runtime);
      expect(filesRead(warm.log()), runtime).toBe(0);
      expect(indexLoaded(warm.log()), runtime).toBe(true);
      expect({ ...warm, log: undefined }).toEqual({ ...cold, log: undefined });
      expect((await cacheFiles(cache, "snapshots")).sort(), runtime).toEqual(snapshots);
    }
    // A change made between two runtimes' starts is seen by the next.
    await writeSkillFile(root, "sql-review", skillMd("sql-review", "Review SQL migrations for long table locks."));
    const changed = await answers(root, cache, [], "node");
    expect(filesRead(changed.log())).toBe(1);
    expect(changed.list).toContain("long table locks");
  }, 120_000);

  it("keep nothing with --no-disk-cache, and keep it where --cache-dir says", async () => {
    const [root, cache, chosen] = [await skillsRoot(), await tempDir(), await tempDir()];
    await answers(root, cache, ["--no-disk-cache"]);
    await expect(readdir(join(cache, "skills-kernel"))).rejects.toThrow();
    await answers(root, cache, ["--cache-dir", chosen]);
    // The usage figures of the searches go there too, written as the server stops.
    await waitFor("the usage figures", async () => (await readdir(chosen)).includes("usage"));
    expect((await readdir(chosen)).sort()).toEqual(["indexes", "snapshots", "summaries", "usage"]);
    const warm = await answers(root, cache, ["--cache-dir", chosen]);
    expect(filesRead(warm.log())).toBe(0);
  });
});
