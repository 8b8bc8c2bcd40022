import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarGz } from "../../src/skills/archives/pack.js";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/**
 * add, outdated, update and restore over a 0.2.0 discovery index, through dist/cli.js against a
 * real HTTP server whose archive changes between runs: the lock records the artifact's digest and
 * the index, outdated compares digests from the index alone, update installs the new archive.
 */
const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const INDEX = "/.well-known/agent-skills/index.json";
const ARCHIVE = "/.well-known/agent-skills/packed.tar.gz";
const encode = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const skillMd = "---\nname: packed\ndescription: A skill published as an archive.\n---\n\n# packed\n";

describe("a discovery index's digest in the lock", () => {
  let base: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let server: FixtureServer;
  let firstDigest: string;
  const run = (args: string[]) => runCli(args, { cwd: project, env, timeoutMs: 60_000 });
  const lock = async () => JSON.parse(await readFile(join(project, "skills-lock.json"), "utf8"));
  const archiveRequests = () => server.requests.filter((request) => request.path === ARCHIVE).length;

  /** Publishes the archive with `script` as its one other file, and the index naming its digest. */
  async function publish(script: string): Promise<string> {
    const bytes = await packTarGz([
      { path: "SKILL.md", bytes: encode(skillMd) },
      { path: "scripts/run.sh", bytes: encode(script) },
    ]);
    const digest = sha256(bytes);
    server.set(ARCHIVE, { body: bytes, headers: { "content-type": "application/gzip" } });
    const index = {
      $schema: SCHEMA,
      skills: [
        {
          name: "packed",
          type: "archive",
          description: "A skill published as an archive.",
          url: "packed.tar.gz",
          digest,
        },
      ],
    };
    server.set(INDEX, { body: JSON.stringify(index), headers: { "content-type": "application/json" } });
    return digest;
  }

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-digest-"));
    project = join(base, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
    server = await startFixtureServer();
    firstDigest = await publish("echo one\n");
  });

  afterAll(async () => {
    await server?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it("add records the artifact's digest and the index it came from", async () => {
    const added = await run(["add", server.url, "--agent", "claude-code"]);
    expect(added.code, added.stderr).toBe(0);
    const entry = (await lock()).skills.packed;
    // As npx skills writes its own entry for a site's index, so its check can read it.
    expect(entry).toMatchObject({
      source: server.url,
      sourceType: "well-known",
      sourceUrl: server.url,
      wellKnownDigest: firstDigest,
      indexUrl: `${server.url}${INDEX}`,
    });
    expect(entry.digest).toBeUndefined();
  });

  it("outdated reads the index alone while the digest is unchanged", async () => {
    const before = archiveRequests();
    const outdated = await run(["outdated", "--json"]);
    expect(outdated.code, outdated.stderr).toBe(0);
    expect(JSON.parse(outdated.stdout)).toEqual([
      { name: "packed", status: "current", current: firstDigest, latest: firstDigest },
    ]);
    expect(archiveRequests()).toBe(before);
    const update = await run(["update"]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toBe("packed is up to date\n");
    expect(archiveRequests()).toBe(before);
  });

  it("a changed archive is outdated, update installs it and records its digest, and restore brings it back", async () => {
    // A lock written before the entry took npx skills' form reads the same, and update rewrites it.
    const { wellKnownDigest, ...entry } = (await lock()).skills.packed;
    await writeFile(
      join(project, "skills-lock.json"),
      JSON.stringify({ version: 1, skills: { packed: { ...entry, sourceType: "catalog", digest: wellKnownDigest } } }),
    );
    const secondDigest = await publish("echo two\n");
    const outdated = await run(["outdated"]);
    expect(outdated.code, outdated.stderr).toBe(1);
    expect(outdated.stdout).toBe(`packed  outdated  ${firstDigest.slice(0, 19)} -> ${secondDigest.slice(0, 19)}\n`);

    const update = await run(["update"]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toBe(`updated packed: ${firstDigest.slice(0, 19)} -> ${secondDigest.slice(0, 19)}\n`);
    const installed = join(project, ".claude/skills/packed");
    expect(await readFile(join(installed, "scripts/run.sh"), "utf8")).toBe("echo two\n");
    expect((await lock()).skills.packed).toMatchObject({ sourceType: "well-known", wellKnownDigest: secondDigest });
    expect((await run(["outdated"])).code).toBe(0);

    await rm(join(project, ".agents/skills/packed"), { recursive: true, force: true });
    const restore = await run(["restore"]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(await readFile(join(installed, "scripts/run.sh"), "utf8")).toBe("echo two\n");
  });
});
