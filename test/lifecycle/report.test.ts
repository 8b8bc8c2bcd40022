import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import { addSkills } from "../../src/lifecycle/add.js";
import { agentById, type Scope } from "../../src/lifecycle/agents.js";
import { openSource, type OpenedSource } from "../../src/lifecycle/fetch.js";
import { lockFolder, lockPath, readLock, type LockEntry } from "../../src/lifecycle/lock-file.js";
import {
  checkFreshness,
  entrySpec,
  installedRows,
  outdatedRows,
  sharedOpener,
  type SourceOpener,
} from "../../src/lifecycle/report.js";
import { parseSource } from "../../src/lifecycle/source-spec.js";

/** installed and outdated's reports in process: checkFreshness with its opener injected, on real folders. */
let base: string;
let project: string;
let scope: Scope;
let team: string;
let opened: string[];

const open: SourceOpener = (spec, commit) => {
  opened.push(spec.written);
  return openSource(spec, { boot: createKernel, logger: createLogger("silent"), cwd: project, commit });
};

async function skill(folder: string, name: string, body = `# ${name}\n`) {
  await mkdir(join(team, folder), { recursive: true });
  await writeFile(join(team, folder, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}`);
}

async function add(names: string[]) {
  await addSkills(
    {
      spec: parseSource(team, project).spec,
      wanted: names,
      agents: [agentById("claude-code")!],
      mode: "link",
      scope,
      force: false,
      strict: false,
      dryRun: false,
    },
    open,
  );
  opened = [];
  return (await readLock(lockPath(scope))).skills;
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "sk-lifecycle-report-")));
  project = join(base, "project");
  team = join(project, "team");
  await mkdir(project);
  await writeFile(join(project, "package.json"), "{}");
  scope = { global: false, root: project, home: join(base, "home") };
  opened = [];
  await skill("pdf", "pdf");
  await skill("notes", "notes");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("checkFreshness", () => {
  it("reads an unchanged source as current, and an edited one as outdated", async () => {
    const { pdf } = await add(["pdf"]);
    const dir = lockFolder(scope);
    expect(await checkFreshness("pdf", pdf!, dir, open)).toMatchObject({ name: "pdf", status: "current" });
    await skill("pdf", "pdf", "# pdf, revised\n");
    expect(await checkFreshness("pdf", pdf!, dir, open)).toMatchObject({ status: "outdated", latest: "changed" });
    expect(opened).toEqual(["./team", "./team"]);
  });

  it("asks nothing of a pinned skill's source or of one npx skills installed", async () => {
    const { pdf } = await add(["pdf"]);
    const pinned = await checkFreshness("pdf", { ...pdf!, pinned: true, ref: "v1" }, project, open);
    expect(pinned).toEqual({ name: "pdf", status: "pinned", current: null, latest: null, note: "pinned to v1" });
    const { files: _files, ...foreign } = pdf!;
    expect(await checkFreshness("pdf", foreign, project, open)).toMatchObject({
      status: "unknown",
      note: "installed by npx skills: add it here to track it",
    });
    expect(opened).toEqual([]);
  });

  it("says why it cannot tell: a source that fails to open, a skill no longer there", async () => {
    const { pdf } = await add(["pdf"]);
    const failing: SourceOpener = async () => {
      throw new Error("the network is down");
    };
    expect(await checkFreshness("pdf", pdf!, project, failing)).toMatchObject({
      status: "unknown",
      latest: null,
      note: "the network is down",
    });
    await rm(join(team, "pdf"), { recursive: true });
    expect((await checkFreshness("pdf", pdf!, lockFolder(scope), open)).note).toMatch(/"pdf" is no longer in \.\/team/);
  });
});

describe("entrySpec", () => {
  it("finds a local folder from the lock's folder, and refuses another tool's source type", () => {
    const entry = { source: "./team", sourceType: "local", computedHash: "h" } as LockEntry;
    expect(entrySpec("pdf", entry, project)).toEqual({ kind: "local", written: "./team", folder: team });
    expect(() => entrySpec("pdf", { ...entry, sourceType: "mystery" }, project)).toThrow(
      '"pdf" was installed by another tool (source type mystery); add it again to manage it here',
    );
  });
});

describe("sharedOpener", () => {
  it("opens each source once for many skills, and closes what it opened", async () => {
    let closed = 0;
    const fake: SourceOpener = async () =>
      ({
        skills: [],
        skipped: new Map(),
        stage: () => Promise.reject(),
        close: async () => void closed++,
      }) as OpenedSource;
    const shared = sharedOpener(fake);
    const spec = parseSource(team, project).spec;
    expect(await shared.open(spec)).toBe(await shared.open(spec));
    await shared.open(spec, "a".repeat(40));
    await shared.closeAll();
    expect(closed).toBe(2);
  });
});

describe("the reports", () => {
  it("outdatedRows: every skill of the lock, the source opened once", async () => {
    await add([]);
    await skill("notes", "notes", "# notes, revised\n");
    const rows = await outdatedRows(scope, open);
    expect(rows.map((row) => [row.name, row.status])).toEqual([
      ["notes", "outdated"],
      ["pdf", "current"],
    ]);
    expect(opened).toEqual(["./team"]);
  });

  it("installedRows: each skill's state, agents and the folders that read it", async () => {
    await add(["pdf"]);
    const [row] = await installedRows(scope);
    expect(row).toMatchObject({
      name: "pdf",
      state: "ok",
      agents: ["claude-code"],
      source: "./team",
      sourceType: "local",
      mode: "link",
      installedBy: "skills-kernel",
    });
    expect(row!.folders.map((folder) => folder.folder)).toContain(".claude/skills");
  });
});
