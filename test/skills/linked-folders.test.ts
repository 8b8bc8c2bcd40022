import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkOnTheWay } from "../../src/skills/files/linked-folders.js";

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-linked-folders-"));
  await mkdir(join(base, "project", ".claude", "skills"), { recursive: true });
  await mkdir(join(base, "elsewhere", "skills"), { recursive: true });
  await symlink(join(base, "elsewhere"), join(base, "project", ".cursor"));
  // The project itself reached through a link: only what lies below it counts.
  await symlink(join(base, "project"), join(base, "project-link"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("linkOnTheWay", () => {
  it("finds nothing on a path of real folders, nor below the first folder not there yet", async () => {
    expect(await linkOnTheWay(join(base, "project", ".claude", "skills"), join(base, "project"))).toBeUndefined();
    expect(await linkOnTheWay(join(base, "project", ".gemini", "skills"), join(base, "project"))).toBeUndefined();
    expect(
      await linkOnTheWay(join(base, "project-link", ".claude", "skills"), join(base, "project-link")),
    ).toBeUndefined();
  });

  it("names the first linked folder below the base", async () => {
    expect(await linkOnTheWay(join(base, "project", ".cursor", "skills"), join(base, "project"))).toEqual({
      path: join(base, "project", ".cursor"),
      problem: "is a symbolic link",
    });
    expect(await linkOnTheWay(join(base, "project", ".cursor"), join(base, "project"))).toEqual({
      path: join(base, "project", ".cursor"),
      problem: "is a symbolic link",
    });
  });

  it("checks a folder outside the base with the folder holding it", async () => {
    expect(await linkOnTheWay(join(base, "project", ".cursor", "skills"), join(base, "other"))).toEqual({
      path: join(base, "project", ".cursor"),
      problem: "is a symbolic link",
    });
    expect(await linkOnTheWay(join(base, "elsewhere", "skills"), join(base, "other"))).toBeUndefined();
  });
});
