import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatLock, readLock, writeLock } from "../../src/lifecycle/lock-file.js";

const made: string[] = [];
afterEach(async () => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));
async function file(content?: string) {
  const dir = await mkdtemp(join(tmpdir(), "skills-kernel-lock-"));
  made.push(dir);
  const path = join(dir, "skills-lock.json");
  if (content !== undefined) await writeFile(path, content);
  return path;
}

const digest = `sha256:${"a".repeat(64)}`;

describe("skills-lock.json", () => {
  it("reads a missing file as an empty lock", async () => {
    expect(await readLock(await file())).toEqual({ version: 1, skills: {} });
  });

  it("writes skills, files and agents sorted and keeps keys it does not know", async () => {
    const path = await file();
    const entry = {
      files: { "b.md": digest, "SKILL.md": digest },
      agents: ["cursor", "claude-code"],
      computedHash: "h",
      sourceType: "git",
      source: "o/r",
      extra: 1,
    };
    await writeLock(path, {
      version: 1,
      skills: { zeta: entry, alpha: { source: "o/r", sourceType: "github", computedHash: "h" } },
    });
    const text = await readFile(path, "utf8");
    expect(Object.keys(JSON.parse(text).skills)).toEqual(["alpha", "zeta"]);
    expect(Object.keys(JSON.parse(text).skills.zeta)).toEqual([
      "source",
      "sourceType",
      "agents",
      "computedHash",
      "files",
      "extra",
    ]);
    expect(JSON.parse(text).skills.zeta.agents).toEqual(["claude-code", "cursor"]);
    expect(Object.keys(JSON.parse(text).skills.zeta.files)).toEqual(["SKILL.md", "b.md"]);
    expect(formatLock(await readLock(path))).toBe(text);
  });

  it("keeps a discovery index's digest and url beside the version, and reads a lock written before them", async () => {
    const path = await file();
    const indexUrl = "https://skills.example.com/.well-known/agent-skills/index.json";
    const entry = {
      source: "https://skills.example.com",
      sourceType: "catalog",
      sourceUrl: "https://skills.example.com",
      skillPath: "pdf/SKILL.md",
      computedHash: "h",
      indexUrl,
      digest,
      version: "2",
    };
    await writeLock(path, { version: 1, skills: { pdf: entry } });
    const written = JSON.parse(await readFile(path, "utf8")).skills.pdf;
    expect(Object.keys(written)).toEqual([
      "source",
      "sourceType",
      "sourceUrl",
      "version",
      "digest",
      "indexUrl",
      "skillPath",
      "computedHash",
    ]);
    expect((await readLock(path)).skills.pdf).toEqual(entry);
    const older = await file(
      JSON.stringify({
        version: 1,
        skills: {
          pdf: {
            source: "https://skills.example.com",
            sourceType: "catalog",
            computedHash: "h",
            files: { "SKILL.md": digest },
          },
        },
      }),
    );
    expect((await readLock(older)).skills.pdf!.digest).toBeUndefined();
  });

  it.each([
    [
      "an artifact digest that is not sha256",
      JSON.stringify({
        version: 1,
        skills: { a: { source: "s", sourceType: "catalog", computedHash: "h", digest: "md5:1" } },
      }),
      /skills\.a\.digest/,
    ],
    ["not JSON", "{", /is not valid JSON/],
    [
      "a newer format",
      '{"version": 2, "skills": {}}',
      /has format version 2, newer than this skills-kernel reads \(1\)/,
    ],
    ["not a lock", '{"version": 1}', /is not a skills lock: skills:/],
    [
      "a bad digest",
      JSON.stringify({
        version: 1,
        skills: { a: { source: "s", sourceType: "git", computedHash: "h", files: { "SKILL.md": "md5:1" } } },
      }),
      /is not a skills lock: skills\.a\.files\.SKILL\.md/,
    ],
    [
      "a path stepping out",
      JSON.stringify({
        version: 1,
        skills: { a: { source: "s", sourceType: "git", computedHash: "h", files: { "../x": digest } } },
      }),
      /skill "a": file "\.\.\/x"/,
    ],
    [
      "a name stepping out",
      JSON.stringify({ version: 1, skills: { "..": { source: "s", sourceType: "git", computedHash: "h" } } }),
      /skill "\.\.": the name is not a plain folder name/,
    ],
    [
      "an unknown agent",
      JSON.stringify({
        version: 1,
        skills: { a: { source: "s", sourceType: "git", computedHash: "h", agents: ["nope"] } },
      }),
      /unknown agent "nope"/,
    ],
  ])("refuses %s, naming the file", async (_what, content, message) => {
    const path = await file(content);
    await expect(readLock(path)).rejects.toThrow(message);
    await expect(readLock(path)).rejects.toThrow(path);
    expect(await readFile(path, "utf8")).toBe(content);
  });
});
