import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { mkdir, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSkillServer, textOf, type SkillServer } from "../helpers/skill-server.js";

/**
 * Every way we know of to make the skill tools serve a file outside a skill folder, against all
 * three ways in: fetch_skill_files, read_skill and the skill:// resources. A canary file beside
 * the root holds a secret that must never appear in any answer.
 */

const SECRET = `CANARY-${randomUUID()}`;
const GOOD = "references/guide.md";
const GOOD_TEXT = "# Guide\nThe good file.\n";

// Made while the tests are collected: the payloads name the canary's absolute path.
const work = mkdtempSync(join(tmpdir(), "skills-kernel-traversal-"));
const root = join(work, "root");
const canary = join(work, "canary.txt");
let server: SkillServer;
/** Every answer of every test, to check for the secret once more at the end. */
const answers: string[] = [];

function record(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  answers.push(text);
  return text;
}

beforeAll(async () => {
  await writeFile(canary, `${SECRET}\n`);
  await writeFile(join(work, "canary-skill.md"), `---\nname: linked-doc\ndescription: ${SECRET}\n---\n${SECRET}\n`);

  const skill = (folder: string, name: string) =>
    mkdir(join(root, folder), { recursive: true }).then(() =>
      writeFile(
        join(root, folder, "SKILL.md"),
        `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`,
      ),
    );
  await skill("victim", "victim");
  const victim = join(root, "victim");
  await mkdir(join(victim, "references"));
  await writeFile(join(victim, GOOD), GOOD_TEXT);
  // Links that lead out of the skill folder, each a different way.
  await symlink("../../../canary.txt", join(victim, "references", "leak.txt"));
  await symlink(canary, join(victim, "abs-leak.txt"));
  await symlink("abs-leak.txt", join(victim, "chain.txt"));
  await symlink(work, join(victim, "outdir"));
  await symlink("../sibling/notes.md", join(victim, "sibling.md"));
  execFileSync("mkfifo", [join(victim, "pipe")]);
  await mkdir(join(victim, "node_modules"));
  await writeFile(join(victim, "node_modules", "dep.js"), "dependency");

  await skill("sibling", "sibling");
  await writeFile(join(root, "sibling", "notes.md"), "a sibling's notes");

  // A SKILL.md that leads outside from the start: the skill is never served.
  await mkdir(join(root, "linked-doc"));
  await symlink(join(work, "canary-skill.md"), join(root, "linked-doc", "SKILL.md"));
  // A SKILL.md that is swapped for a link outside after the load.
  await skill("swapped", "swapped");

  server = await startSkillServer([root]);
  await unlink(join(root, "swapped", "SKILL.md"));
  await symlink(join(work, "canary-skill.md"), join(root, "swapped", "SKILL.md"));
});

afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

/** Paths that must each be refused; none of them may reach the canary (or anything else outside). */
function payloads(): string[] {
  return [
    // Plain traversal.
    "../canary.txt",
    "../../canary.txt",
    "../../../canary.txt",
    `${"../".repeat(40)}canary.txt`,
    "references/../../canary.txt",
    "references/../../../canary.txt",
    `references/${"../".repeat(10)}canary.txt`,
    "references/guide.md/../../../canary.txt",
    "SKILL.md/../../canary.txt",
    "..",
    "../",
    // Percent-encoded, in upper and lower case, and double-encoded.
    "..%2fcanary.txt",
    "..%2F..%2Fcanary.txt",
    "%2e%2e/canary.txt",
    "%2E%2E/%2E%2E/canary.txt",
    "%2e%2e%2f%2e%2e%2fcanary.txt",
    "%252e%252e/canary.txt",
    "%252e%252e%252fcanary.txt",
    "..%252f..%252fcanary.txt",
    "%25252e%25252e/canary.txt",
    "..%5ccanary.txt",
    "%2e%2e%5c%2e%2e%5ccanary.txt",
    // Overlong UTF-8 and other non-standard encodings of "." and "/".
    "%c0%ae%c0%ae/canary.txt",
    "..%c0%afcanary.txt",
    "%u002e%u002e/canary.txt",
    // Absolute paths.
    "/etc/passwd",
    "/etc/shadow",
    canary,
    join(root, "victim", GOOD),
    "//etc/passwd",
    "file:///etc/passwd",
    "C:/Windows/win.ini",
    "C:\\Windows\\win.ini",
    "~/canary.txt",
    "$HOME/canary.txt",
    // Backslashes.
    "..\\canary.txt",
    "..\\..\\canary.txt",
    "references\\..\\..\\canary.txt",
    "\\etc\\passwd",
    "references\\guide.md",
    // NUL and control characters.
    "../canary.txt\0.md",
    `${GOOD}\0../../canary.txt`,
    "\0",
    "%00../canary.txt",
    "references%00/guide.md",
    "\n../canary.txt",
    // Unicode look-alikes of "." and "/" ("．", "／", "‥", "∕", "⁄", "﹨", "＼").
    "\uff0e\uff0e/canary.txt",
    "..\uff0fcanary.txt",
    "\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fcanary.txt",
    "\u2025/canary.txt",
    "..\u2215canary.txt",
    "..\u2044canary.txt",
    "..\ufe68canary.txt",
    "..\uff3ccanary.txt",
    // Links out of the skill folder: to a file, a chain of links, a folder, a sibling skill.
    "references/leak.txt",
    "abs-leak.txt",
    "chain.txt",
    "outdir/canary.txt",
    "outdir/root/victim/references/guide.md",
    "sibling.md",
    "../sibling/notes.md",
    // Not regular files, and what the listing leaves out.
    "pipe",
    "references",
    "node_modules/dep.js",
    ".git/config",
    // Dots, empty segments, and odd spellings of a good path.
    ".",
    "./references/guide.md",
    "references/./guide.md",
    "references//guide.md",
    "/references/guide.md",
    "references/guide.md/",
    "",
    "....//canary.txt",
    "..../canary.txt",
    ".../canary.txt",
    "..;/canary.txt",
    // Very long paths.
    `${"a/".repeat(600)}x`,
    "x".repeat(5_000),
    `${"../".repeat(2_000)}canary.txt`,
    // The SKILL.md itself is not one of the files.
    "SKILL.md",
  ];
}

describe("fetch_skill_files refuses every traversal, file by file", () => {
  it("has at least 50 payloads", () => {
    expect(payloads().length).toBeGreaterThanOrEqual(50);
  });

  it.each(payloads().map((payload) => [JSON.stringify(payload).slice(0, 80), payload]))(
    "refuses %s and still serves the good path beside it",
    async (_label, payload) => {
      const result = await server.call("fetch_skill_files", { skill_name: "victim", file_paths: [payload, GOOD] });
      const text = record(result);
      expect(text).not.toContain(SECRET);
      expect(result.isError).toBeFalsy();
      const [bad, good] = (result.structuredContent as { files: Record<string, unknown>[] }).files;
      expect(bad).toEqual({ path: expect.any(String), error: expect.any(String) });
      expect(bad).not.toHaveProperty("content");
      expect(good).toEqual({ path: GOOD, content: GOOD_TEXT, encoding: "utf8", size: GOOD_TEXT.length });
      // The error never tells where on disk the file is, nor echoes a huge path back.
      expect(String(bad!.error)).not.toContain(work);
      expect(String(bad!.path).length).toBeLessThanOrEqual(1_024);
    },
  );

  it("says why, for each kind of refusal", async () => {
    const reasons = {
      "references/leak.txt": "leads outside the skill folder",
      "outdir/canary.txt": "is inside a linked folder, whose files are not served",
      "sibling.md": "leads outside the skill folder",
      pipe: "is not a regular file but a FIFO",
      "../canary.txt": "the path has a '..' segment; paths may not leave the skill folder",
    };
    const result = await server.call("fetch_skill_files", { skill_name: "victim", file_paths: Object.keys(reasons) });
    expect(record(result)).not.toContain(SECRET);
    expect((result.structuredContent as { files: unknown[] }).files).toEqual(
      Object.entries(reasons).map(([path, error]) => ({ path, error })),
    );
  });

  it("refuses five bad paths in one call, each on its own", async () => {
    const bad = ["../canary.txt", "references/leak.txt", "pipe", "%2e%2e/canary.txt", canary];
    const result = await server.call("fetch_skill_files", { skill_name: "victim", file_paths: bad });
    expect(record(result)).not.toContain(SECRET);
    const files = (result.structuredContent as { files: { path: string; error?: string }[] }).files;
    expect(files.map((file) => file.path)).toEqual(bad);
    expect(files.every((file) => typeof file.error === "string")).toBe(true);
  });
});

describe("read_skill refuses skills that lead outside", () => {
  it.each([
    ["../canary", undefined],
    ["../../canary.txt", undefined],
    ["/etc/passwd", undefined],
    [canary, undefined],
    ["root:../canary", undefined],
    ["root:../../canary.txt", undefined],
    ["linked-doc", undefined],
    ["root:linked-doc", undefined],
    ["swapped", undefined],
    ["victim/../..", undefined],
    ["canary", ".."],
    ["canary.txt", "../"],
    ["../canary.txt", "root"],
    ["linked-doc", "root"],
    ["%2e%2e/canary", undefined],
  ])("refuses %s (source %s)", async (skill_name, source) => {
    const result = await server.call("read_skill", source === undefined ? { skill_name } : { skill_name, source });
    expect(record(result)).not.toContain(SECRET);
    expect(result.isError).toBe(true);
  });

  it("says why a swapped SKILL.md is refused", async () => {
    const result = await server.call("read_skill", { skill_name: "swapped" });
    expect(textOf(result)).toBe("read_skill: SKILL.md: leads outside the skill folder");
  });

  it("lists only files that stay inside the skill folder", async () => {
    const result = await server.call("read_skill", { skill_name: "victim" });
    expect(record(result)).not.toContain(SECRET);
    expect((result.structuredContent as { files: string[] }).files).toEqual([GOOD]);
  });
});

describe("skill:// resources refuse every traversal", () => {
  const REFUSED = "refused:";
  async function readOrError(uri: string): Promise<string> {
    return server.client.readResource({ uri }).then(
      (result) => record(result),
      // A refusal is marked: SDK v2 sends the message without an "MCP error" prefix.
      (error: unknown) => `${REFUSED} ${record(error instanceof Error ? error.message : error)}`,
    );
  }

  it.each(payloads().map((payload) => [JSON.stringify(payload).slice(0, 80), payload]))(
    "refuses %s, encoded and raw",
    async (_label, payload) => {
      const encoded = payload.split("/").map(encodeURIComponent).join("/");
      for (const uri of [
        `skill://victim/${encoded}`,
        `skill://victim/${payload}`,
        `skill://victim/${encodeURIComponent(payload)}`,
      ]) {
        const answer = await readOrError(uri);
        expect(answer).not.toContain(SECRET);
        // Only the skill's own files may come back: when a URI normalises to the good file, or
        // names the SKILL.md.
        if (!answer.startsWith(REFUSED)) {
          expect([GOOD_TEXT, "# victim\n"].some((text) => answer.includes(JSON.stringify(text).slice(1, -1)))).toBe(
            true,
          );
        }
      }
    },
  );

  it.each([
    "skill://linked-doc/SKILL.md",
    "skill://swapped/SKILL.md",
    "skill://..%2F..%2Fcanary.txt/SKILL.md",
    "skill://root%3A..%2Fcanary/SKILL.md",
    "skill://victim/references/../../../canary.txt",
    "skill://victim/%2e%2e/%2e%2e/canary.txt",
    "skill://victim/..%2F..%2Fcanary.txt",
    `skill://victim/${canary}`,
    `skill://victim/${encodeURIComponent(canary)}`,
    "skill://victim/outdir/canary.txt",
  ])("refuses %s", async (uri) => {
    const answer = await readOrError(uri);
    expect(answer.startsWith(REFUSED)).toBe(true);
    expect(answer).not.toContain(SECRET);
  });

  it("lists no skill whose SKILL.md leads outside, and serves the good file", async () => {
    const listed = record(await server.client.listResources());
    expect(listed).not.toContain(SECRET);
    expect(listed).not.toContain("linked-doc");
    expect(
      (await server.client.readResource({ uri: `skill://victim/${GOOD.split("/").map(encodeURIComponent).join("/")}` }))
        .contents[0],
    ).toMatchObject({ text: GOOD_TEXT });
  });
});

describe("after all of it", () => {
  it("never served the secret, and the server still answers", async () => {
    expect(answers.length).toBeGreaterThan(200);
    expect(answers.some((answer) => answer.includes(SECRET))).toBe(false);
    const result = await server.call("fetch_skill_files", { skill_name: "victim", file_paths: [GOOD] });
    expect(result.structuredContent).toMatchObject({ files: [{ path: GOOD, content: GOOD_TEXT }] });
  });
});
