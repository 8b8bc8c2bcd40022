import { lstat, mkdir, mkdtemp, readFile, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKernel } from "../../src/create-kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import { addSkills, type AddRequest } from "../../src/lifecycle/add.js";
import { agentById, type AgentRow, type Scope } from "../../src/lifecycle/agents.js";
import { lockFields, sourceFieldsOf } from "../../src/lifecycle/commit.js";
import { openSource } from "../../src/lifecycle/fetch.js";
import { lockPath, readLock } from "../../src/lifecycle/lock-file.js";
import { entryKind, placementPaths, storeFolder } from "../../src/lifecycle/place.js";
import type { SourceOpener } from "../../src/lifecycle/report.js";
import { parseSource } from "../../src/lifecycle/source-spec.js";
import { inspectSkill } from "../../src/lifecycle/state.js";

/**
 * The lifecycle's steps in process, on real folders: add (open, stage, refuse, commit), the
 * commit's lock entry and placement, and the state inspectSkill reads back. The CLI's end-to-end
 * tests (test/e2e/lifecycle*.test.ts) keep what only the bundle shows.
 */
let base: string;
let project: string;
let scope: Scope;
let source: string;

const claude = agentById("claude-code")!;
const cursor = agentById("cursor")!;

const open: SourceOpener = (spec, commit) =>
  openSource(spec, { boot: createKernel, logger: createLogger("silent"), cwd: project, commit });

async function skill(root: string, folder: string, name: string, body = `# ${name}\n`) {
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, folder, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}`);
}

function request(overrides: Partial<AddRequest> = {}): AddRequest {
  return {
    spec: parseSource(source, project).spec,
    wanted: [],
    agents: [claude],
    mode: "link",
    scope,
    force: false,
    strict: false,
    dryRun: false,
    ...overrides,
  };
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "sk-lifecycle-add-")));
  project = join(base, "project");
  await mkdir(project);
  await writeFile(join(project, "package.json"), "{}");
  scope = { global: false, root: project, home: join(base, "home") };
  source = join(project, "team");
  await skill(source, "pdf", "pdf");
  await skill(source, "notes", "notes");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("addSkills", () => {
  it("adds every skill of a folder: one stored copy, a link per agent, a lock entry each", async () => {
    const outcome = await addSkills(request({ agents: [claude, cursor] }), open);
    expect(outcome.failures).toEqual([]);
    expect(outcome.added.map((added) => added.folder).sort()).toEqual(["notes", "pdf"]);
    const stored = join(storeFolder(scope), "pdf");
    expect(await readFile(join(stored, "SKILL.md"), "utf8")).toContain("name: pdf");
    const claudePath = join(project, ".claude", "skills", "pdf");
    expect((await lstat(claudePath)).isSymbolicLink()).toBe(true);
    expect(join(project, ".claude", "skills", await readlink(claudePath))).toBe(stored);
    const lock = await readLock(lockPath(scope));
    expect(lock.skills.pdf).toMatchObject({ source: "./team", sourceType: "local", mode: "link" });
    expect(lock.skills.pdf!.agents!.sort()).toEqual(["claude-code", "cursor"]);
    expect(Object.keys(lock.skills.pdf!.files!)).toEqual(["SKILL.md"]);
  });

  it("adds only the skills named, and names what there is for one that is not", async () => {
    const outcome = await addSkills(request({ wanted: ["pdf"] }), open);
    expect(outcome.added.map((added) => added.folder)).toEqual(["pdf"]);
    await expect(addSkills(request({ wanted: ["docx"] }), open)).rejects.toThrow(
      /has no skill named "docx"; it has: (notes, pdf|pdf, notes)/,
    );
  });

  it("writes nothing on a dry run", async () => {
    const outcome = await addSkills(request({ dryRun: true }), open);
    expect(outcome.added.every((added) => added.dry_run)).toBe(true);
    expect(await entryKind(join(project, ".claude", "skills", "pdf"))).toBe("none");
    expect((await readLock(lockPath(scope))).skills).toEqual({});
  });

  it("copies for each agent in copy mode", async () => {
    await addSkills(request({ mode: "copy", agents: [claude, cursor], wanted: ["pdf"] }), open);
    for (const path of placementPaths([claude, cursor], scope, "pdf", "copy"))
      expect(await entryKind(path)).toBe("skill");
  });

  it("refuses to replace a skill folder the lock does not record, unless forced", async () => {
    const path = join(project, ".claude", "skills", "pdf");
    await skill(join(project, ".claude", "skills"), "pdf", "pdf", "someone else's\n");
    const refused = await addSkills(request({ wanted: ["pdf"] }), open);
    expect(refused.failures).toEqual([`${path} exists and ${lockPath(scope)} does not record it; --force replaces it`]);
    expect(await readFile(join(path, "SKILL.md"), "utf8")).toContain("someone else's");
    const forced = await addSkills(request({ wanted: ["pdf"], force: true }), open);
    expect(forced.added).toHaveLength(1);
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
  });

  it("never replaces a folder that is not a skill, even forced", async () => {
    await mkdir(join(project, ".claude", "skills", "pdf"), { recursive: true });
    await writeFile(join(project, ".claude", "skills", "pdf", "notes.md"), "mine\n");
    const outcome = await addSkills(request({ wanted: ["pdf"], force: true }), open);
    expect(outcome.added).toEqual([]);
    expect(outcome.failures).toEqual([expect.stringMatching(/pdf.*\(remove it first\)$/)]);
    expect(await readFile(join(project, ".claude", "skills", "pdf", "notes.md"), "utf8")).toBe("mine\n");
  });

  it("keeps the other skills when one fails", async () => {
    await mkdir(join(project, ".claude", "skills"), { recursive: true });
    await writeFile(join(project, ".claude", "skills", "notes"), "a file where the skill goes\n");
    const outcome = await addSkills(request(), open);
    expect(outcome.added.map((added) => added.folder)).toEqual(["pdf"]);
    expect(outcome.failures).toHaveLength(1);
    expect(Object.keys((await readLock(lockPath(scope))).skills)).toEqual(["pdf"]);
  });

  it("adds agents to a skill already added, keeping the ones the lock lists", async () => {
    await addSkills(request({ wanted: ["pdf"] }), open);
    const again = await addSkills(request({ wanted: ["pdf"], agents: [cursor] }), open);
    expect([...again.added[0]!.agents].sort()).toEqual(["claude-code", "cursor"]);
  });

  it("refuses another source's skill of the same name without force", async () => {
    await addSkills(request({ wanted: ["pdf"] }), open);
    const other = await realpath(await mkdtemp(join(tmpdir(), "sk-lifecycle-other-")));
    await skill(other, "pdf", "pdf", "# another pdf\n");
    const spec = parseSource(other, project).spec;
    const refused = await addSkills(request({ spec, wanted: ["pdf"] }), open);
    expect(refused.failures).toEqual([
      expect.stringMatching(/^pdf is installed from \.\/team; --force replaces it with /),
    ]);
    // Outside the project: the lock records its absolute path, and says so.
    expect(refused.notes).toEqual([expect.stringContaining(`${other} is outside the project`)]);
    const forced = await addSkills(request({ spec, wanted: ["pdf"], force: true }), open);
    expect(forced.added).toHaveLength(1);
    expect((await readLock(lockPath(scope))).skills.pdf!.source).toBe(other);
    await rm(other, { recursive: true, force: true });
  });
});

describe("the lock entry's source fields", () => {
  it("round-trip through lockFields and sourceFieldsOf, in npx skills' spelling", () => {
    const fields = {
      source: "acme/skills",
      sourceType: "git",
      url: "https://github.com/acme/skills.git",
      ref: "main",
      pinned: false,
      commit: "a".repeat(40),
      version: undefined,
      digest: undefined,
      indexUrl: undefined,
      path: "skills/pdf",
      name: undefined,
      signer: undefined,
    };
    const entry = lockFields(fields);
    expect(entry).toMatchObject({ sourceUrl: fields.url, skillPath: "skills/pdf/SKILL.md" });
    expect(sourceFieldsOf({ ...entry, computedHash: "h" } as never)).toEqual(fields);
  });

  it("records a discovery index's artifact as npx skills' well-known entry", () => {
    const entry = lockFields({
      source: "https://example.com",
      sourceType: "catalog",
      url: "https://example.com/.well-known/agent-skills/index.json",
      digest: `sha256:${"b".repeat(64)}`,
      indexUrl: "https://example.com/.well-known/agent-skills/index.json",
      path: "pdf",
    });
    expect(entry).toMatchObject({ sourceType: "well-known", wellKnownDigest: `sha256:${"b".repeat(64)}` });
    expect(entry.skillPath).toBeUndefined();
  });
});

describe("inspectSkill", () => {
  async function added(agents: AgentRow[] = [claude]) {
    await addSkills(request({ wanted: ["pdf"], agents }), open);
    return (await readLock(lockPath(scope))).skills.pdf!;
  }

  it("reads an untouched skill as ok", async () => {
    const entry = await added();
    expect(await inspectSkill("pdf", entry, scope)).toMatchObject({ state: "ok", differing: [], missingFor: [] });
  });

  it("names the files edited or added since", async () => {
    const entry = await added();
    const stored = join(storeFolder(scope), "pdf");
    await writeFile(join(stored, "SKILL.md"), "---\nname: pdf\ndescription: Edited.\n---\n");
    await writeFile(join(stored, "new.md"), "new\n");
    expect(await inspectSkill("pdf", entry, scope)).toMatchObject({
      state: "modified",
      differing: ["SKILL.md", "new.md"],
    });
  });

  it("names the agents whose folder lost it", async () => {
    const entry = await added([claude, cursor]);
    await rm(join(project, ".claude", "skills", "pdf"));
    expect(await inspectSkill("pdf", entry, scope)).toMatchObject({ state: "missing", missingFor: ["claude-code"] });
  });
});
