import { describe, expect, it } from "vitest";
import { decodeOffset, encodeCursor } from "../../../../src/skills/catalog/page-cursor.js";
import { RESOURCES_PAGE_SIZE } from "../../../../src/plugins/mcp/skill-resources/index.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";
import { startSkillServer, textOf } from "../../../helpers/skill-server.js";

// #14 item 9: at 1,566 skills resources/list returned 562 KB and ignored cursors, and
// list_skills format:json 1.24 MB. Both come in pages now.

async function manySkills(count: number): Promise<string> {
  const root = await tempDir();
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const name = `skill-${String(i).padStart(4, "0")}`;
      return writeSkillFile(root, name, skillMd(name, `Does task number ${i}.`));
    }),
  );
  return root;
}

describe("page cursors", () => {
  it("round-trip, and refuse anything this server did not make", () => {
    expect(decodeOffset(encodeCursor(300))).toBe(300);
    for (const bad of [
      "",
      "abc",
      encodeCursor(1).slice(1),
      Buffer.from("sk1:-1").toString("base64url"),
      Buffer.from("sk1:1e3").toString("base64url"),
      "x".repeat(65),
    ]) {
      expect(decodeOffset(bad)).toBeUndefined();
    }
  });
});

describe("list_skills pages", () => {
  it("answers json in pages of 100 with an opaque next_cursor, and walks the whole catalog", async () => {
    const server = await startSkillServer([await manySkills(250)], ["list-skills"]);
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const answer = await server.call("list_skills", { format: "json", ...(cursor ? { cursor } : {}) });
        const structured = answer.structuredContent as {
          total: number;
          skills: { id: string }[];
          next_cursor?: string;
        };
        expect(structured.total).toBe(250);
        expect(JSON.parse(textOf(answer)).next_cursor).toBe(structured.next_cursor);
        seen.push(...structured.skills.map((skill) => skill.id));
        cursor = structured.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toHaveLength(250);
      expect(new Set(seen).size).toBe(250);

      const names = await server.call("list_skills", {});
      expect((names.structuredContent as { skills: unknown[] }).skills).toHaveLength(250);
      expect((names.structuredContent as { next_cursor?: string }).next_cursor).toBeUndefined();

      const limited = await server.call("list_skills", { limit: 100 });
      expect(textOf(limited)).toMatch(
        /250 skills in all; for the next page, call list_skills with cursor "[A-Za-z0-9_-]+"\.$/,
      );

      const bad = await server.call("list_skills", { cursor: "nope" });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toBe(
        "list_skills: cursor is not a next_cursor list_skills gave; leave it out to start from the first page",
      );
    } finally {
      await server.close();
    }
  });
});

describe("resources/list pages", () => {
  it(`lists ${RESOURCES_PAGE_SIZE} resources a page, follows nextCursor, and refuses a bad cursor with -32602`, async () => {
    const server = await startSkillServer([await manySkills(450)], ["skill-resources"]);
    try {
      // The client's listResources() with no cursor walks every page itself: ask for the first alone.
      const first = await server.client.request({ method: "resources/list", params: {} });
      expect(first.resources).toHaveLength(RESOURCES_PAGE_SIZE);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await server.client.listResources({ cursor: first.nextCursor! });
      const third = await server.client.listResources({ cursor: second.nextCursor! });
      expect(third.nextCursor).toBeUndefined();
      const uris = [...first.resources, ...second.resources, ...third.resources].map((resource) => resource.uri);
      expect(new Set(uris).size).toBe(450);
      expect((await server.client.listResources()).resources).toHaveLength(450);
      await expect(server.client.listResources({ cursor: "nope" })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/cursor/),
      });
    } finally {
      await server.close();
    }
  });
});
