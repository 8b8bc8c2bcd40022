import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, relative } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { zipSync } from "fflate";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, type Runtime, runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";
import { NODE_24, NPX_SKILLS } from "../helpers/runtimes.js";

/**
 * Agent Skills discovery 0.2.0 through the bundle: served by `serve --transport http` and written
 * by `export`, installed by the real `npx skills` (skills 1.7.4 on Node 24) byte for byte.
 */
const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}\n`;

let base: string;
let skills: string;
let server: HttpServerProcess;

interface Entry {
  name: string;
  type: string;
  description: string;
  url: string;
  digest: string;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-discovery-"));
  skills = join(base, "skills");
  await mkdir(join(skills, "solo"), { recursive: true });
  await writeFile(join(skills, "solo/SKILL.md"), skillMd("solo", "A skill that is its SKILL.md alone."));
  await mkdir(join(skills, "packed/scripts"), { recursive: true });
  await mkdir(join(skills, "packed/references/deep"), { recursive: true });
  await writeFile(join(skills, "packed/SKILL.md"), skillMd("packed", "A skill with scripts and references."));
  await writeFile(join(skills, "packed/scripts/run.sh"), "#!/bin/sh\necho packed\n");
  await chmod(join(skills, "packed/scripts/run.sh"), 0o755);
  await writeFile(join(skills, "packed/references/deep/notes.md"), "# Notes\n\nSome notes.\n");
  await writeFile(join(skills, "packed/references/logo.bin"), Buffer.from([0, 1, 2, 255, 254, 0]));
  // The loader serves it (its name is not checked there), but no spec name: left out of the index.
  await mkdir(join(skills, "Bad_Name"), { recursive: true });
  await writeFile(join(skills, "Bad_Name/SKILL.md"), skillMd("Bad_Name", "A skill whose name breaks the spec."));
  server = await startHttpServer(["--skills-dir", skills]);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (base) await rm(base, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

async function filesUnder(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path), await readFile(path));
  }
  return files;
}

/** `npx skills add ORIGIN --skill NAME... -a claude-code -y` in a fresh project; returns the project. */
async function npxSkillsAdd(origin: string, names: readonly string[]): Promise<string> {
  const project = await mkdtemp(join(base, "project-"));
  await mkdir(join(project, ".git"));
  const env = {
    ...process.env,
    HOME: join(project, "home"),
    XDG_CACHE_HOME: join(project, "cache"),
    XDG_STATE_HOME: join(project, "state"),
    CI: "1",
    DISABLE_TELEMETRY: "1",
    DO_NOT_TRACK: "1",
  };
  await promisify(execFile)(
    NODE_24,
    [NPX_SKILLS, "add", origin, ...names.flatMap((name) => ["--skill", name]), "-a", "claude-code", "-y"],
    { cwd: project, env, timeout: 90_000 },
  );
  return project;
}

async function expectInstalledExactly(project: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const installed = await filesUnder(join(project, ".claude/skills", name));
    expect(installed, name).toEqual(await filesUnder(join(skills, name)));
  }
}

describe("serve --transport http publishes /.well-known/agent-skills", () => {
  it("lists each valid skill once with the digest of the bytes it serves, and leaves out a name the spec refuses", async () => {
    const response = await fetch(new URL("/.well-known/agent-skills/index.json", server.origin));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const index = (await response.json()) as { $schema: string; skills: Entry[] };
    expect(index.$schema).toBe(SCHEMA);
    expect(index.skills.map(({ name, type, url }) => ({ name, type, url }))).toEqual([
      { name: "packed", type: "archive", url: "packed.tar.gz" },
      { name: "solo", type: "skill-md", url: "solo/SKILL.md" },
    ]);
    for (const entry of index.skills) {
      const artifact = await fetch(new URL(entry.url, response.url));
      expect(artifact.status).toBe(200);
      expect(artifact.headers.get("content-type")).toBe(
        entry.type === "archive" ? "application/gzip" : "text/markdown; charset=utf-8",
      );
      expect(sha256(new Uint8Array(await artifact.arrayBuffer()))).toBe(entry.digest);
    }
    expect(server.stderr()).toMatch(/Bad_Name is left out of the discovery index \(invalid-name\)/);
  });

  it("packs an archive with SKILL.md at the root, no ./ or .. entries, the same bytes every time", async () => {
    const url = new URL("/.well-known/agent-skills/packed.tar.gz", server.origin);
    const first = Buffer.from(await (await fetch(url)).arrayBuffer());
    const second = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(first.equals(second)).toBe(true);
    const tar = gunzipSync(first);
    const names: string[] = [];
    for (let offset = 0; offset + 512 <= tar.length; ) {
      const header = tar.subarray(offset, offset + 512);
      if (header.every((byte) => byte === 0)) break;
      const field = (start: number, length: number) =>
        header
          .subarray(start, start + length)
          .toString("utf8")
          .replace(/\0.*$/s, "");
      const prefix = field(345, 155);
      names.push(prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
      offset += 512 + Math.ceil(Number.parseInt(field(124, 12).trim() || "0", 8) / 512) * 512;
    }
    expect(names).toEqual(["SKILL.md", "references/deep/notes.md", "references/logo.bin", "scripts/run.sh"]);
  });

  it("answers HEAD, a matching If-None-Match with 304, other methods with 405 and unknown paths with 404", async () => {
    const indexUrl = new URL("/.well-known/agent-skills/index.json", server.origin);
    const head = await fetch(indexUrl, { method: "HEAD" });
    expect(head.status).toBe(200);
    const etag = head.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await fetch(indexUrl, { headers: { "if-none-match": etag! } })).status).toBe(304);
    expect((await fetch(indexUrl, { method: "POST", body: "{}" })).status).toBe(405);
    for (const path of [
      "missing/SKILL.md",
      "missing.tar.gz",
      "solo.tar.gz",
      "packed/SKILL.md",
      "Bad_Name/SKILL.md",
      "../index.json",
      "",
    ]) {
      const response = await fetch(new URL(`/.well-known/agent-skills/${path}`, server.origin));
      expect(response.status, path).toBe(404);
    }
  });

  it("npx skills add installs a skill-md and an archive skill byte for byte", async () => {
    const project = await npxSkillsAdd(server.origin, ["solo", "packed"]);
    await expectInstalledExactly(project, ["solo", "packed"]);
  }, 120_000);
});

describe("export writes the same site as static files", () => {
  let site: string;
  let staticServer: Server;
  let origin: string;

  beforeAll(async () => {
    site = join(base, "site");
    staticServer = createServer(async (request, response) => {
      const path = decodeURIComponent(new URL(request.url!, "http://x").pathname);
      try {
        if (path.includes("..")) throw new Error("no");
        const bytes = await readFile(join(site, path));
        const type =
          { ".json": "application/json", ".md": "text/markdown", ".gz": "application/gzip" }[extname(path)] ??
          "application/octet-stream";
        response.writeHead(200, { "content-type": type }).end(bytes);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => staticServer.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => staticServer?.close(resolve));
  });

  it("writes what the server serves, and rewrites nothing when nothing changed", async () => {
    const first = await runCli(["export", skills, "--out", site]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(
      `exported 2 skills to ${site}/.well-known/agent-skills (3 files written, 0 removed, 0 unchanged; 1 left out)\n`,
    );
    // docs/deployment.md's line has this shape: the site's absolute path, /abs/project/public there.
    const documented =
      /^# (exported \d+ skills to )\/abs\/project\/public(\/\.well-known\/agent-skills \(\d+ files written, \d+ removed, \d+ unchanged)\)$/m.exec(
        await readFile(join(REPO_ROOT, "docs/deployment.md"), "utf8"),
      );
    expect(documented).not.toBeNull();
    expect(first.stdout.replace(site, "SITE").replace(/\d+/g, "N")).toContain(
      `${documented![1]}SITE${documented![2]}`.replace(/\d+/g, "N"),
    );
    expect(first.stderr).toMatch(/Bad_Name left out \(invalid-name\)/);
    const root = join(site, ".well-known/agent-skills");
    const written = await filesUnder(root);
    // The record of what it wrote, so that the next export removes only those files.
    expect([...written.keys()].sort()).toEqual([
      ".skills-kernel-export.json",
      "index.json",
      "packed.tar.gz",
      "solo/SKILL.md",
    ]);
    const served = Buffer.from(
      await (await fetch(new URL("/.well-known/agent-skills/index.json", server.origin))).arrayBuffer(),
    );
    expect(written.get("index.json")!.equals(served)).toBe(true);
    const mtimes = await Promise.all([...written.keys()].map(async (path) => (await stat(join(root, path))).mtimeMs));

    const again = await runCli(["export", skills, "--out", site]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("0 files written, 0 removed, 3 unchanged");
    expect(await filesUnder(root)).toEqual(written);
    expect(await Promise.all([...written.keys()].map(async (path) => (await stat(join(root, path))).mtimeMs))).toEqual(
      mtimes,
    );
  });

  it("--base-url makes every artifact url absolute", async () => {
    const other = join(base, "cdn-site");
    const result = await runCli(["export", skills, "--out", other, "--base-url", "https://cdn.example.com/skills/"]);
    expect(result.code, result.stderr).toBe(0);
    const index = JSON.parse(await readFile(join(other, ".well-known/agent-skills/index.json"), "utf8")) as {
      skills: Entry[];
    };
    expect(index.skills.map((entry) => entry.url)).toEqual([
      "https://cdn.example.com/skills/.well-known/agent-skills/packed.tar.gz",
      "https://cdn.example.com/skills/.well-known/agent-skills/solo/SKILL.md",
    ]);
  });

  // export and read serve nothing, so their reads make blocking calls: each runtime's own fs.
  it("exports the same files on every runtime, and read lists a skill's files there", async () => {
    const exported = async (runtime: Runtime) => {
      const out = join(base, `site-${runtime}`);
      const result = await runCli(["export", skills, "--out", out], { runtime, timeoutMs: 60_000 });
      expect(result.code, `${runtime}: ${result.stderr}`).toBe(0);
      expect(result.stdout.replace(out, "SITE"), runtime).toBe(
        "exported 2 skills to SITE/.well-known/agent-skills (3 files written, 0 removed, 0 unchanged; 1 left out)\n",
      );
      return filesUnder(join(out, ".well-known/agent-skills"));
    };
    const onNode = await exported("node");
    const read = async (runtime: Runtime) => {
      const result = await runCli(["read", "packed", "--json", "--skills-dir", skills], { runtime, timeoutMs: 60_000 });
      expect(result.code, `${runtime}: ${result.stderr}`).toBe(0);
      return (JSON.parse(result.stdout) as { files: string[] }).files;
    };
    const nodeFiles = await read("node");
    expect(nodeFiles).toEqual(["references/deep/notes.md", "references/logo.bin", "scripts/run.sh"]);
    for (const runtime of ["node24", "bun", "deno"] as const) {
      const files = await exported(runtime);
      expect([...files.keys()].sort(), runtime).toEqual([...onNode.keys()].sort());
      // gzip's bytes are each runtime's zlib's; what they hold, and every digest of them, must agree.
      expect(gunzipSync(files.get("packed.tar.gz")!).equals(gunzipSync(onNode.get("packed.tar.gz")!)), runtime).toBe(
        true,
      );
      expect(files.get("solo/SKILL.md")!.equals(onNode.get("solo/SKILL.md")!), runtime).toBe(true);
      const index = JSON.parse(files.get("index.json")!.toString("utf8")) as { skills: Entry[] };
      for (const entry of index.skills)
        expect(entry.digest, `${runtime} ${entry.url}`).toBe(sha256(files.get(entry.url)!));
      expect(await read(runtime), runtime).toEqual(nodeFiles);
    }
  }, 240_000);

  it("npx skills add installs both skills from the static site byte for byte", async () => {
    const project = await npxSkillsAdd(origin, ["solo", "packed"]);
    await expectInstalledExactly(project, ["solo", "packed"]);
  }, 120_000);
});

describe("per-team visibility", () => {
  const AUDIENCE = "https://skills.example.com/mcp";
  let idp: OAuth2Server;
  let signedIn: HttpServerProcess;

  beforeAll(async () => {
    idp = new OAuth2Server();
    await idp.issuer.keys.generate("RS256", { kid: "k1" });
    await idp.start(0, "127.0.0.1");
    const team = join(base, "team");
    await mkdir(join(team, "deploy"), { recursive: true });
    await writeFile(join(team, "deploy/SKILL.md"), skillMd("deploy", "Ship the platform services."));
    const config = {
      plugins: [
        [
          "fs",
          {
            roots: [
              { path: team, source: "team", visibleTo: { claims: { groups: ["platform"] } } },
              { path: skills, source: "public" },
            ],
          },
        ],
        ["http", { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, jwksCooldownMs: 0 } }],
      ],
    };
    await writeFile(join(base, "signed-in.json"), JSON.stringify(config));
    signedIn = await startHttpServer(["--config", join(base, "signed-in.json")]);
  }, 60_000);

  afterAll(async () => {
    await signedIn?.stop();
    await idp?.stop();
  });

  const indexAs = async (groups: string[]) => {
    const bearer = await idp.issuer.buildToken({
      scopesOrTransform: (_header, payload) => Object.assign(payload, { sub: "someone", aud: AUDIENCE, groups }),
    });
    const response = await fetch(new URL("/.well-known/agent-skills/index.json", signedIn.origin), {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return { response, text: await response.text(), bearer };
  };

  it("an outsider's index names no hidden skill and is private; a member's lists it", async () => {
    const outsider = await indexAs(["sales"]);
    expect(outsider.response.status).toBe(200);
    expect(outsider.response.headers.get("cache-control")).toBe("private, no-cache");
    expect(outsider.text).not.toContain("deploy");
    expect(JSON.parse(outsider.text).skills.map((entry: Entry) => entry.name)).toEqual(["packed", "solo"]);
    const hidden = await fetch(new URL("/.well-known/agent-skills/deploy/SKILL.md", signedIn.origin), {
      headers: { authorization: `Bearer ${outsider.bearer}` },
    });
    expect(hidden.status).toBe(404);
    const member = await indexAs(["platform"]);
    expect(JSON.parse(member.text).skills.map((entry: Entry) => entry.name)).toEqual(["deploy", "packed", "solo"]);
  });
});

describe("--catalog and add read a 0.2.0 index", () => {
  let fixtures: FixtureServer;
  const forgedBody = skillMd("forged", "Its digest in the index is wrong.");

  beforeAll(async () => {
    // Artifacts made by other tools than ours: system tar and fflate's zip.
    const tarred = join(base, "tarred");
    await mkdir(join(tarred, "scripts"), { recursive: true });
    await writeFile(join(tarred, "SKILL.md"), skillMd("tarred", "Comes as a tar.gz."));
    await writeFile(join(tarred, "scripts/go.sh"), "echo go\n");
    await promisify(execFile)("tar", ["-czf", join(base, "tarred.tar.gz"), "-C", tarred, "SKILL.md", "scripts"]);
    const tarBytes = await readFile(join(base, "tarred.tar.gz"));
    const zipBytes = zipSync({
      "SKILL.md": new TextEncoder().encode(skillMd("zipped", "Comes as a zip.")),
      "references/a.md": new TextEncoder().encode("# A\n"),
    });
    const mdBytes = new TextEncoder().encode(skillMd("md-only", "Comes as its SKILL.md."));
    const index = {
      $schema: SCHEMA,
      skills: [
        {
          name: "md-only",
          type: "skill-md",
          description: "Comes as its SKILL.md.",
          url: "md-only/SKILL.md",
          digest: sha256(mdBytes),
        },
        {
          name: "tarred",
          type: "archive",
          description: "Comes as a tar.gz.",
          url: "/files/tarred.tar.gz",
          digest: sha256(tarBytes),
        },
        { name: "zipped", type: "archive", description: "Comes as a zip.", url: "ZIP_URL", digest: sha256(zipBytes) },
        {
          name: "forged",
          type: "skill-md",
          description: "Its digest in the index is wrong.",
          url: "forged/SKILL.md",
          digest: sha256(new TextEncoder().encode("other bytes")),
        },
      ],
    };
    fixtures = await startFixtureServer({
      "/.well-known/agent-skills/md-only/SKILL.md": { body: mdBytes },
      "/files/tarred.tar.gz": { body: tarBytes, headers: { "content-type": "application/gzip" } },
      "/elsewhere/zipped.zip": { body: zipBytes, headers: { "content-type": "application/zip" } },
      "/.well-known/agent-skills/forged/SKILL.md": { body: forgedBody },
    });
    fixtures.set("/.well-known/agent-skills/index.json", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(index).replace("ZIP_URL", `${fixtures.url}/elsewhere/zipped.zip`),
    });
  });

  afterAll(async () => {
    await fixtures?.close();
  });

  it("lists the skill-md, .tar.gz and .zip skills, and refuses the wrong digest in one line naming it", async () => {
    const listed = await runCli(["list", "--catalog", fixtures.url]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split("\n").sort()).toEqual(["md-only", "tarred", "zipped"]);
    const refused = listed.stderr.split("\n").filter((line) => line.includes("forged"));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(
      /forged: refused, the bytes at .*forged\/SKILL\.md have digest sha256:[0-9a-f]{64}, not the sha256:[0-9a-f]{64} the index gives/,
    );
    for (const [name, file] of [
      ["tarred", "scripts/go.sh"],
      ["zipped", "references/a.md"],
    ]) {
      const read = await runCli(["read", name!, "--json", "--catalog", fixtures.url]);
      expect(read.code, read.stderr).toBe(0);
      expect(JSON.parse(read.stdout).files).toEqual([file]);
    }
  });

  it("add takes the site's URL (no git, no doubled path) and installs an archive skill's files", async () => {
    for (const source of [fixtures.url, `${fixtures.url}/.well-known/agent-skills@tarred`]) {
      const project = await mkdtemp(join(base, "add-"));
      await mkdir(join(project, ".git"));
      const added = await runCli(["add", source, "--skill", "tarred", "--agent", "claude-code"], {
        cwd: project,
        env: { HOME: join(project, "home") },
      });
      expect(added.code, added.stderr).toBe(0);
      expect(await filesUnder(join(project, ".claude/skills/tarred"))).toEqual(await filesUnder(join(base, "tarred")));
    }
  });
});
