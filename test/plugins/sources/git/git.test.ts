import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { parseRepositorySpec } from "../../../../src/remote/git/spec.js";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { settlesBeforeAnyIoCallback } from "../../../helpers/blocking.js";
import { boot } from "../../tools/validate-skill/kernel.js";
import { createRepository, git, skill, tempDir } from "./repos.js";

const TOOLS: PluginEntry[] = ["list-skills", "read-skill", "fetch-skill-files"];

async function start(repositories: unknown[], cacheDir: string, options: Record<string, unknown> = {}) {
  const booted = await boot([["git", { repositories, cacheDir, timeoutMs: 20_000, ...options }], ...TOOLS], cacheDir);
  await booted.kernel.catalog.ready();
  return booted;
}

const names = (booted: Awaited<ReturnType<typeof start>>) =>
  booted.kernel.catalog
    .list()
    .map((s) => s.name)
    .sort();

describe("git source", () => {
  it.each([
    ["reads with blocking calls in a kernel that serves nothing", true],
    ["waits in the thread pool in a served kernel", false],
  ])("%s, as the fs plugin's folders do", async (_what, inProcessOnly) => {
    const repo = await createRepository({ "skills/pdf/SKILL.md": skill("pdf"), "skills/pdf/guide.md": "# Guide\n" });
    const cacheDir = await tempDir();
    const kernel = await createKernel({
      config: { plugins: [["git", { repositories: [repo.url], cacheDir, timeoutMs: 20_000 }]] },
      baseDir: cacheDir,
      inProcessOnly,
      logger: createLogger("error", () => {}),
    });
    try {
      await kernel.catalog.ready();
      expect(await settlesBeforeAnyIoCallback(() => kernel.catalog.readDocument("pdf", 1024))).toBe(inProcessOnly);
      expect(await settlesBeforeAnyIoCallback(() => kernel.catalog.listFiles("pdf", 10))).toBe(inProcessOnly);
    } finally {
      await kernel.close();
    }
  });

  it("serves a repository's skills at its default branch, and their files", async () => {
    const repo = await createRepository({
      "skills/pdf/SKILL.md": skill("pdf"),
      "skills/pdf/references/guide.md": "# Guide\n",
      "skills/notes/SKILL.md": skill("notes"),
      "README.md": "# repo\n",
    });
    const cacheDir = await tempDir();
    const booted = await start([repo.url], cacheDir);
    expect(names(booted)).toEqual(["notes", "pdf"]);
    const read = await booted.call("read_skill", { skill_name: "pdf" });
    expect(read.structured.files).toEqual(["references/guide.md"]);
    const fetched = await booted.call("fetch_skill_files", { skill_name: "pdf", file_paths: ["references/guide.md"] });
    expect(fetched.structured.files[0].content).toBe("# Guide\n");
  });

  it("checks out only the folder asked for (sparse), at a tag or a branch", async () => {
    const repo = await createRepository({ "skills/pdf/SKILL.md": skill("pdf"), "other/big/SKILL.md": skill("big") });
    git(repo.work, "tag", "v1");
    git(repo.work, "push", "-q", repo.bare, "v1");
    await repo.commit({ "skills/later/SKILL.md": skill("later") });
    const cacheDir = await tempDir();
    const tagged = await start([`${repo.url}#v1:skills`], cacheDir);
    expect(names(tagged)).toEqual(["pdf"]);
    const branch = await start([{ url: repo.url, ref: "main", path: "skills", name: "repo" }], cacheDir);
    expect(names(branch)).toEqual(["later", "pdf"]);
    // The checkouts hold the folder asked for and top-level files, never other/; they are shallow,
    // and other/'s blobs were never even downloaded (a partial clone, over file:// too).
    const otherBlob = git(repo.work, "rev-parse", "HEAD:other/big/SKILL.md").trim();
    const checkouts = join(cacheDir, "git");
    for (const repoDir of await readdir(checkouts)) {
      for (const checkout of await readdir(join(checkouts, repoDir))) {
        const dir = join(checkouts, repoDir, checkout);
        expect(existsSync(join(dir, "other"))).toBe(false);
        expect(git(dir, "rev-parse", "--is-shallow-repository").trim()).toBe("true");
        expect(git(dir, "rev-list", "--objects", "--missing=print", "HEAD").split("\n")).toContain(`?${otherBlob}`);
      }
    }
  });

  it("keeps a commit's checkout for good: it loads with the remote gone", async () => {
    const repo = await createRepository({ "a/SKILL.md": skill("a") });
    const commit = git(repo.work, "rev-parse", "HEAD").trim();
    const cacheDir = await tempDir();
    expect(names(await start([`${repo.url}#${commit}`], cacheDir))).toEqual(["a"]);
    await rm(repo.bare, { recursive: true, force: true });
    const again = await start([`${repo.url}#${commit}`], cacheDir);
    expect(names(again)).toEqual(["a"]);
    expect(again.kernel.catalog.diagnostics()).toEqual([]);
  });

  it("re-checks a branch only after its TTL, and serves the last commit, marked stale, when the remote is gone", async () => {
    const repo = await createRepository({ "a/SKILL.md": skill("a") });
    const cacheDir = await tempDir();
    const cached = await start([repo.url], cacheDir);
    await repo.commit({ "b/SKILL.md": skill("b") });
    await cached.kernel.catalog.refresh();
    expect(names(cached)).toEqual(["a"]);

    const eager = await start([repo.url], cacheDir, { refTtlMs: 0 });
    expect(names(eager)).toEqual(["a", "b"]);
    await rm(repo.bare, { recursive: true, force: true });
    await eager.kernel.catalog.refresh();
    expect(names(eager)).toEqual(["a", "b"]);
    expect(eager.kernel.catalog.diagnostics().find((d) => d.code === "stale")?.message).toMatch(/could not be asked/);
  });

  it("fails its source alone, with git's reason, for an unknown ref or folder", async () => {
    const repo = await createRepository({ "a/SKILL.md": skill("a") });
    const cacheDir = await tempDir();
    const booted = await start(
      [`${repo.url}#nope`, { url: repo.url, path: "missing", name: "nofolder" }, { url: repo.url, name: "good" }],
      cacheDir,
    );
    expect(names(booted)).toEqual(["a"]);
    const messages = booted.kernel.catalog.diagnostics().map((d) => d.message);
    expect(messages.some((m) => /no branch or tag named "nope"/.test(m))).toBe(true);
    expect(messages.some((m) => /no folder "missing"/.test(m))).toBe(true);
  });

  it("says so when git is not installed", async () => {
    const cacheDir = await tempDir();
    const saved = process.env.PATH;
    process.env.PATH = join(cacheDir, "no-bin");
    try {
      const booted = await start(["file:///nowhere.git"], cacheDir);
      expect(booted.kernel.catalog.diagnostics()[0]?.message).toMatch(/git is not installed \(or not on PATH\)/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it("refuses transports outside its allow-list", async () => {
    const cacheDir = await tempDir();
    const booted = await start(["http://127.0.0.1:9/x.git"], cacheDir);
    expect(booted.kernel.catalog.diagnostics()[0]?.message).toMatch(/transport 'http' not allowed/);
  });

  it("never runs a hook, a smudge filter or fetches a submodule, whatever the user's git config says", async () => {
    const sub = await createRepository({ "inner/SKILL.md": skill("inner") });
    const repo = await createRepository({
      "a/SKILL.md": skill("a"),
      ".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n",
      "a/data.bin": "payload\n",
    });
    git(repo.work, "submodule", "add", "-q", sub.url, "sub");
    git(repo.work, "commit", "-q", "-m", "add submodule");
    git(repo.work, "push", "-q", repo.bare, "HEAD:refs/heads/main");

    // A user config that would run a hook and a filter on every checkout, and recurse into submodules.
    const home = await tempDir();
    const hooks = join(home, "hooks");
    const marker = join(home, "ran");
    await mkdir(hooks);
    await writeFile(join(hooks, "post-checkout"), `#!/bin/sh\necho hook >> "${marker}"\n`, { mode: 0o755 });
    await writeFile(join(home, "smudge"), `#!/bin/sh\necho filter >> "${marker}"\ncat\n`, { mode: 0o755 });
    const config = join(home, "gitconfig");
    await writeFile(
      config,
      `[core]\n\thooksPath = ${hooks}\n[filter "lfs"]\n\tsmudge = ${join(home, "smudge")}\n\trequired = true\n` +
        `[submodule]\n\trecurse = true\n[protocol "file"]\n\tallow = always\n`,
    );
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = config;
    try {
      // The test can fail: plain git with this config runs both and fetches the submodule.
      const control = join(home, "control");
      git(home, "-c", `include.path=${config}`, "clone", "-q", "--recurse-submodules", repo.url, control);
      const ran = (await readFile(marker, "utf8")).split("\n");
      expect(ran).toContain("hook");
      expect(ran).toContain("filter");
      expect(existsSync(join(control, "sub", "inner", "SKILL.md"))).toBe(true);
      await rm(marker);

      const cacheDir = await tempDir();
      const booted = await start([repo.url], cacheDir);
      expect(names(booted)).toEqual(["a"]);
      expect(existsSync(marker)).toBe(false);
      const read = await booted.call("fetch_skill_files", { skill_name: "a", file_paths: ["data.bin"] });
      expect(read.structured.files[0].content).toBe("payload\n");
      const [repoDir] = await readdir(join(cacheDir, "git"));
      const [checkout] = await readdir(join(cacheDir, "git", repoDir!));
      expect(await readdir(join(cacheDir, "git", repoDir!, checkout!, "sub"))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
  });
});

describe("repository specs", () => {
  it("reads owner/repo, URLs, refs and folders", () => {
    expect(parseRepositorySpec("anthropics/skills")).toMatchObject({
      url: "https://github.com/anthropics/skills.git",
      github: { owner: "anthropics", repo: "skills" },
    });
    expect(parseRepositorySpec("anthropics/skills#main:skills/pdf")).toMatchObject({ ref: "main", path: "skills/pdf" });
    expect(parseRepositorySpec("anthropics/skills:skills")).toMatchObject({ ref: undefined, path: "skills" });
    expect(parseRepositorySpec("https://host:8443/o/r.git:sub")).toMatchObject({
      url: "https://host:8443/o/r.git",
      path: "sub",
    });
    expect(parseRepositorySpec("git@github.com:o/r.git#v1")).toMatchObject({
      url: "git@github.com:o/r.git",
      ref: "v1",
      github: { owner: "o", repo: "r" },
    });
    expect(parseRepositorySpec("file:///tmp/x.git")).toMatchObject({ url: "file:///tmp/x.git", path: undefined });
  });

  it("takes credentials out of the URL, for git's credential helper only", () => {
    expect(parseRepositorySpec("http://deploy:TOKEN@127.0.0.1:8080/o/r.git#main:sub")).toEqual({
      url: "http://127.0.0.1:8080/o/r.git",
      ref: "main",
      path: "sub",
      github: undefined,
      credentials: { origin: "http://127.0.0.1:8080", username: "deploy", password: "TOKEN" },
    });
    expect(parseRepositorySpec("https://ghp_x@github.com/o/r.git")).toMatchObject({
      url: "https://github.com/o/r.git",
      github: { owner: "o", repo: "r" },
      credentials: { username: "ghp_x", password: "" },
    });
    expect(parseRepositorySpec("https://a:b@c@host/r.git").credentials).toMatchObject({ password: "b@c" });
    // Over ssh the user name stays (it picks the account); a password is dropped.
    expect(parseRepositorySpec("ssh://git:pw@host/r.git")).toEqual({
      url: "ssh://git@host/r.git",
      ref: undefined,
      path: undefined,
      github: undefined,
    });
    expect(() => parseRepositorySpec("https://u:SECRET@host/r.git:../x")).toThrow(
      '"https://***@host/r.git:../x": the folder',
    );
  });

  it("refuses what could become an option, a traversal or another protocol", () => {
    expect(() => parseRepositorySpec("--upload-pack=touch /tmp/x")).toThrow(/starts with "-"/);
    expect(() => parseRepositorySpec("o/r:../../etc")).toThrow(/plain relative path/);
    expect(() => parseRepositorySpec("o/r#--output=x")).toThrow(/not a branch, tag or commit/);
    expect(() => parseRepositorySpec("ext::sh -c touch% /tmp/pwned")).toThrow(
      /neither owner\/repo nor a repository URL/,
    );
  });

  it("with followRedirects false, a remote that redirects fails and its target is never asked", async () => {
    const internalHits: string[] = [];
    const internal = createServer((request, response) => {
      internalHits.push(request.url ?? "");
      response.writeHead(404).end();
    });
    const front = createServer((_request, response) => {
      response
        .writeHead(302, {
          location: `http://127.0.0.1:${(internal.address() as AddressInfo).port}/admin.git/info/refs?service=git-upload-pack`,
        })
        .end();
    });
    await Promise.all(
      [internal, front].map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))),
    );
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/repo.git`;
      const booted = await start([{ url, name: "steered" }], await tempDir(), {
        protocols: ["http"],
        followRedirects: false,
      });
      const messages = booted.kernel.catalog.diagnostics().map((d) => d.message);
      expect(
        messages.some((m) => /returned error: 302 \(the remote redirects, which is not followed here\)/.test(m)),
      ).toBe(true);
      expect(internalHits).toEqual([]);
    } finally {
      await Promise.all([internal, front].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
