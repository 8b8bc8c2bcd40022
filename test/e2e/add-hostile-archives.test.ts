import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { zipSync } from "fflate";
import { pack, type Headers } from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** A .tar.gz with exactly these headers, as a hostile publisher would write it. */
async function tarGz(entries: readonly (Headers & { body?: Uint8Array })[]): Promise<Uint8Array> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const done = new Promise((resolve) => archive.on("end", resolve));
  archive.on("data", (chunk: Buffer) => chunks.push(chunk));
  for (const { body, ...header } of entries) archive.entry(header, body === undefined ? undefined : Buffer.from(body));
  archive.finalize();
  await done;
  return new Uint8Array(gzipSync(Buffer.concat(chunks)));
}

/** 100,000 empty files after the SKILL.md: one 512-byte header repeated, gzip shrinks it to little. */
async function hundredThousandEntries(name: string): Promise<Uint8Array> {
  const head = gunzipSync(await tarGz([{ name: "SKILL.md", body: skillMd(name) }])).subarray(0, 1024);
  const one = gunzipSync(await tarGz([{ name: "f", body: new Uint8Array() }])).subarray(0, 512);
  return new Uint8Array(gzipSync(Buffer.concat([head, ...Array.from({ length: 100_000 }, () => one)])));
}

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
    entries: { why: /more than 1024 entries|unpacks to more than/, bytes: () => hundredThousandEntries("entries") },
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
