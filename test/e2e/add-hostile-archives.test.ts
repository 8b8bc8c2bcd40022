import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manyEmptyEntries, tarGz } from "../fixtures/hostile-archives.js";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/**
 * Hostile archives behind a 0.2.0 index, each with the right digest, through `add` in dist/cli.js:
 * each is refused with one line naming it, and nothing is written to the project.
 */
const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const encode = (text: string) => new TextEncoder().encode(text);
const skillMd = (name: string) => encode(`---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`);
const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

describe("add refuses hostile archives from a discovery index", () => {
  let base: string;
  let server: FixtureServer;
  const hostile: Record<string, { why: RegExp; bytes: () => Promise<Uint8Array> }> = {
    traversal: {
      why: /entry "\.\.\/escape\.sh": .*'\.\.' segment/,
      bytes: () =>
        tarGz([
          { name: "SKILL.md", body: skillMd("traversal") },
          { name: "../escape.sh", body: encode("echo out\n") },
        ]),
    },
    absolute: {
      why: /entry "\/tmp\/planted": .*absolute/,
      bytes: () =>
        tarGz([
          { name: "SKILL.md", body: skillMd("absolute") },
          { name: "/tmp/planted", body: encode("x\n") },
        ]),
    },
    "link-out": {
      why: /entry "notes" is a symlink -> \/etc\/passwd/,
      bytes: () =>
        tarGz([
          { name: "SKILL.md", body: skillMd("link-out") },
          { name: "notes", type: "symlink", linkname: "/etc/passwd" },
        ]),
    },
    bomb: {
      why: /times its own size \(a compression bomb\)/,
      bytes: async () => zipSync({ "SKILL.md": skillMd("bomb"), zeros: new Uint8Array(8 * 1024 * 1024) }, { level: 9 }),
    },
    entries: {
      why: /more than 1024 entries|unpacks to more than/,
      bytes: () => manyEmptyEntries(skillMd("entries"), 100_000),
    },
  };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "skills-kernel-hostile-add-"));
    server = await startFixtureServer();
    const skills = [];
    for (const [name, { bytes }] of Object.entries(hostile)) {
      const artifact = await bytes();
      const file = `${name}.${artifact[0] === 0x50 ? "zip" : "tar.gz"}`;
      server.set(`/.well-known/agent-skills/${file}`, { body: artifact });
      skills.push({ name, type: "archive", description: `The ${name} skill.`, url: file, digest: sha256(artifact) });
    }
    server.set("/.well-known/agent-skills/index.json", {
      body: JSON.stringify({ $schema: SCHEMA, skills }),
      headers: { "content-type": "application/json" },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it.each(Object.keys(hostile))("%s: refused with one line naming it and why, nothing written", async (name) => {
    const project = await mkdtemp(join(base, "project-"));
    await mkdir(join(project, ".git"));
    const env = {
      HOME: join(base, "home"),
      XDG_CACHE_HOME: join(base, "cache"),
      XDG_STATE_HOME: join(base, "state"),
      CI: "1",
    };
    const added = await runCli(["add", server.url, "--skill", name, "--agent", "claude-code"], {
      cwd: project,
      env,
      timeoutMs: 60_000,
    });
    expect(added.code).toBe(1);
    const last = added.stderr.trim().split("\n").at(-1)!;
    expect(last).toMatch(
      new RegExp(
        `^skills-kernel: refusing to add "${name}" from ${server.url}: refused: ${name}: ${server.url}/\\.well-known/agent-skills/${name}\\.`,
      ),
    );
    expect(last).toMatch(hostile[name]!.why);
    expect(await readdir(project)).toEqual([".git"]);
    expect(await readdir(join(project, ".git"))).toEqual([]);
  });
});
