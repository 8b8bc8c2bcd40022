import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { zipSync } from "fflate";
import { pack } from "tar-stream";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { packTarGz } from "../../../../src/skills/archives/pack.js";
import { skillFolders } from "../../../../src/plugins/sources/archive/skill-folders.js";
import { startFixtureServer, type FixtureServer } from "../../../helpers/fixture-server.js";
import { boot } from "../../tools/validate-skill/kernel.js";

const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const TOOLS: PluginEntry[] = [
  "list-skills",
  "read-skill",
  "fetch-skill-files",
  ["skill-policy", { audit: { "*": "off" } }],
];
const encode = (text: string) => new TextEncoder().encode(text);
const skillMd = (name: string) => encode(`---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`);

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skills-kernel-archive-"));
  dirs.push(dir);
  return dir;
}

async function serve(archives: unknown[], baseDir: string, extra: Record<string, unknown> = {}) {
  const booted = await boot(
    [["archive", { archives, cacheDir: join(baseDir, "cache"), retries: 0, timeoutMs: 2_000, ...extra }], ...TOOLS],
    baseDir,
  );
  await booted.kernel.catalog.ready();
  return booted;
}

describe("skillFolders", () => {
  it("takes the root as the one skill when SKILL.md is there, else the outermost folders holding one", () => {
    const file = (path: string) => ({ path, bytes: new Uint8Array() });
    expect(
      skillFolders([file("SKILL.md"), file("inner/SKILL.md"), file("a.md")]).map((s) => [s.path, [...s.files.keys()]]),
    ).toEqual([["", ["SKILL.md", "inner/SKILL.md", "a.md"]]]);
    const found = skillFolders([
      file("repo/skills/pdf/SKILL.md"),
      file("repo/skills/pdf/sub/SKILL.md"),
      file("repo/skills/docx/SKILL.md"),
      file("repo/README.md"),
    ]);
    expect(found.map((s) => [s.path, [...s.files.keys()]])).toEqual([
      ["repo/skills/docx", ["SKILL.md"]],
      ["repo/skills/pdf", ["SKILL.md", "sub/SKILL.md"]],
    ]);
  });
});

describe("archive source", () => {
  it("serves a local .tar.gz of several skill folders and a .zip with one skill at its root", async () => {
    const dir = await folder();
    await writeFile(
      join(dir, "team.tar.gz"),
      await packTarGz([
        { path: "skills/pdf/SKILL.md", bytes: skillMd("pdf") },
        { path: "skills/pdf/references/guide.md", bytes: encode("# Guide\n") },
        { path: "skills/docx/SKILL.md", bytes: skillMd("docx") },
      ]),
    );
    await writeFile(
      join(dir, "notes.zip"),
      zipSync({ "SKILL.md": skillMd("notes"), "scripts/run.sh": encode("echo hi\n") }),
    );
    const { call, kernel } = await serve(["team.tar.gz", { location: join(dir, "notes.zip"), name: "mine" }], dir);
    const listed = await call("list_skills", {});
    expect(listed.structured.skills.map((s: { id: string }) => s.id).sort()).toEqual(["docx", "notes", "pdf"]);
    expect(kernel.catalog.get("pdf")?.qualifiedId).toBe("team:pdf");
    expect(kernel.catalog.get("notes")?.qualifiedId).toBe("mine:notes");
    const read = await call("read_skill", { skill_name: "pdf" });
    expect(read.structured.files).toEqual(["references/guide.md"]);
    const fetched = await call("fetch_skill_files", { skill_name: "notes", file_paths: ["scripts/run.sh"] });
    expect(fetched.structured.files[0]).toMatchObject({ path: "scripts/run.sh", content: "echo hi\n" });
  });

  it("reads a remote archive once, and asks again with its ETag after the TTL", async () => {
    const server = await startFixtureServer({
      "/skills.zip": { body: zipSync({ "pdf/SKILL.md": skillMd("pdf") }), etag: '"v1"' },
    });
    servers.push(server);
    const dir = await folder();
    const { call, kernel } = await serve([`${server.url}/skills.zip`], dir, { ttlMs: 0 });
    expect((await call("list_skills", {})).structured.skills.map((s: { id: string }) => s.id)).toEqual(["pdf"]);
    expect(kernel.catalog.sources.map((source) => source.name)).toEqual(["skills"]);
    await kernel.catalog.refresh(undefined, undefined, { revalidate: true });
    expect(server.requests.map((request) => [request.path, request.status])).toEqual([
      ["/skills.zip", 200],
      ["/skills.zip", 304],
    ]);
  });

  it("refuses a hostile archive in one line naming it, and serves the other archives", async () => {
    const dir = await folder();
    const tar = pack();
    const chunks: Buffer[] = [];
    const done = new Promise((resolve) => tar.on("end", resolve));
    tar.on("data", (chunk: Buffer) => chunks.push(chunk));
    tar.entry({ name: "evil/SKILL.md" }, Buffer.from(skillMd("evil")));
    tar.entry({ name: "evil/notes", type: "symlink", linkname: "/etc/passwd" });
    tar.finalize();
    await done;
    await writeFile(join(dir, "evil.tar.gz"), gzipSync(Buffer.concat(chunks)));
    await writeFile(join(dir, "good.zip"), zipSync({ "good/SKILL.md": skillMd("good") }));
    await writeFile(
      join(dir, "bomb.zip"),
      zipSync({ "b/SKILL.md": skillMd("b"), "b/zeros": new Uint8Array(8 * 1024 * 1024) }, { level: 9 }),
    );
    await symlink("/dev/zero", join(dir, "device.zip"));
    const { call, kernel } = await serve(["evil.tar.gz", "good.zip", "bomb.zip", "device.zip", "missing.zip"], dir);
    expect((await call("list_skills", {})).structured.skills.map((s: { id: string }) => s.id)).toEqual(["good"]);
    const failures = Object.fromEntries(kernel.catalog.status().map((status) => [status.source, status.error ?? "ok"]));
    expect(failures.evil).toMatch(
      /^refused: .*evil\.tar\.gz: entry "evil\/notes" is a symlink -> \/etc\/passwd; a skill archive holds files and folders only$/,
    );
    expect(failures.bomb).toMatch(/times its own size \(a compression bomb\)/);
    expect(failures.device).toMatch(/is not a regular file/);
    expect(failures.missing).toMatch(/cannot read .*missing\.zip: ENOENT/);
    expect(failures.good).toBe("ok");
    for (const error of Object.values(failures)) expect(error).not.toContain("\n");
  });
});
