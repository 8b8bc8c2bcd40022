import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceSnapshot } from "../../../../src/skills/types.js";
import { createHostileRoot, type HostileRoot } from "../../../fixtures/hostile-root.js";
import { loadRoots } from "./ctx.js";

describe("a hostile root", () => {
  let work: string;
  let hostile: HostileRoot;
  let snapshot: SourceSnapshot;
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);

  beforeAll(async () => {
    // The fixture writes its canary beside the root, so the root goes one level down.
    work = await mkdtemp(join(tmpdir(), "skills-kernel-hostile-"));
    const root = join(work, "hostile");
    hostile = await createHostileRoot(root);
    const started = performance.now();
    snapshot = await loadRoots([root], root);
    console.log(`hostile root loaded in ${(performance.now() - started).toFixed(0)} ms`);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("serves every good skill, and nothing else", () => {
    expect(snapshot.skills.map((skill) => skill.name)).toEqual([...hostile.goodSkills].sort());
    expect(snapshot.skills.map((skill) => skill.path)).toEqual([...hostile.goodSkills].sort());
  });

  it("skips each bad one with an error diagnostic", () => {
    const byPath = new Map(snapshot.diagnostics.filter((d) => d.severity === "error").map((d) => [d.path, d.code]));
    expect(Object.fromEntries(hostile.badPaths.map((path) => [path, byPath.get(path)]))).toEqual({
      "alias-bomb": "yaml-parse",
      "bad-yaml": "yaml-parse",
      "canary-link": "outside-skill",
      "fifo-skill": "not-regular-file",
      "huge-frontmatter": "frontmatter-too-large",
    });
  });

  it("keeps prototype keys out of the frontmatter and Object.prototype clean", () => {
    const polluter = snapshot.skills.find((skill) => skill.name === "prototype-pollution");
    expect(Object.keys(polluter!.frontmatter)).toEqual(["name", "description", "metadata"]);
    expect(snapshot.diagnostics.filter((d) => d.path === "prototype-pollution").map((d) => d.code)).toEqual([
      "unsafe-key",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
  });
});
