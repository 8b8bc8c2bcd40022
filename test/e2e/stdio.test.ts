import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, type Runtime } from "../helpers/cli.js";
import { CORPORA, offeredCorpusNames } from "../helpers/corpus.js";

type Connected = Awaited<ReturnType<typeof connectCli>>;

interface SkillList {
  format: string;
  total: number;
  skills: { id: string; name: string; source: string; description?: string; path?: string }[];
}

function text(result: Awaited<ReturnType<Connected["client"]["callTool"]>>): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("");
}

// The same end-to-end walk on every runtime, so nothing Node-only creeps into the kernel.
describe.each(Object.keys(RUNTIMES) as Runtime[])("stdio server on %s", (runtime) => {
  describe("the repo's own config (examples/skills)", () => {
    let server: Connected;
    beforeAll(async () => {
      server = await connectCli(["--config", "plugins.config.ts"], { runtime });
    });
    afterAll(async () => {
      await server?.client.close();
    });

    it("initializes and lists its tools", async () => {
      expect(server.client.getServerVersion()?.name).toBe("skills-kernel");
      const { tools } = await server.client.listTools();
      const listSkills = tools.find((t) => t.name === "list_skills");
      expect(listSkills?.annotations?.readOnlyHint).toBe(true);
      expect(listSkills?.outputSchema).toBeDefined();
    });

    it("answers list_skills in each format", async () => {
      const names = await server.client.callTool({ name: "list_skills", arguments: {} });
      expect(text(names).split("\n")).toEqual(["changelog-curator", "commit-message-writer", "readme-reviewer"]);
      expect(names.structuredContent).toMatchObject({ format: "names-only", total: 3 });

      const json = await server.client.callTool({ name: "list_skills", arguments: { format: "json" } });
      const parsed = JSON.parse(text(json)) as SkillList;
      expect(parsed.total).toBe(3);
      expect(parsed.skills[0]).toMatchObject({
        id: "changelog-curator",
        source: "examples",
        path: "changelog-curator",
      });
      expect(parsed.skills[0]!.description).toMatch(/^Turns merged pull requests/);

      const full = await server.client.callTool({ name: "list_skills", arguments: { format: "full" } });
      expect(text(full)).toMatch(/^# 3 skills\n\n## changelog-curator\nsource: examples/);
      expect(text(full)).toContain("Reviews a project README");
    });

    it("refuses an unknown format with an error naming the allowed values", async () => {
      const result = await server.client.callTool({ name: "list_skills", arguments: { format: "xml" } });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/names-only.*json.*full/);
      // ...and keeps serving.
      const again = await server.client.callTool({ name: "list_skills", arguments: {} });
      expect(again.isError).toBeFalsy();
    });

    it("keeps stdout for JSON-RPC: logs went to stderr", () => {
      expect(server.stderr()).toContain("serving 3 skills over stdio");
    });
  });

  for (const corpus of CORPORA) {
    describe.skipIf(!corpus.present)(corpus.title(corpus.label), () => {
      let server: Connected;
      beforeAll(async () => {
        server = await connectCli(["--skills-dir", corpus.dir], { runtime });
      });
      afterAll(async () => {
        await server?.client.close();
      });

      /** Every page of list_skills in one format: each page's text and structured answer. */
      async function allPages(format: string) {
        const pages: { text: string; list: SkillList & { next_cursor?: string } }[] = [];
        let cursor: string | undefined;
        do {
          const result = await server.client.callTool({
            name: "list_skills",
            arguments: { format, ...(cursor ? { cursor } : {}) },
          });
          const list = result.structuredContent as unknown as SkillList & { next_cursor?: string };
          pages.push({ text: text(result), list });
          cursor = list.next_cursor;
        } while (cursor !== undefined);
        return pages;
      }

      it("lists every skill the rules accept, in all three formats, page by page", async () => {
        const expected = offeredCorpusNames(corpus);

        const json = (await allPages("json")).flatMap(({ text: page }) => (JSON.parse(page) as SkillList).skills);
        expect(json.map((s) => s.name).sort()).toEqual(expected);
        expect(new Set(json.map((s) => s.id)).size).toBe(expected.length);

        const names = await allPages("names-only");
        const ids = names.flatMap((page) => page.text.split("\n"));
        expect(ids.sort()).toEqual(json.map((s) => s.id).sort());
        expect(names[0]!.list.total).toBe(expected.length);

        const full = (await allPages("full")).map((page) => page.text);
        expect(full[0]!.startsWith(`# ${expected.length} skills`)).toBe(true);
        expect(full.join("\n").match(/^## /gm)?.length).toBe(expected.length);
      });

      it("keeps skills that share a name reachable by qualified id", async () => {
        const json = (await allPages("json")).flatMap(({ text: page }) => (JSON.parse(page) as SkillList).skills);
        const status = json.filter((s) => s.name === "status");
        expect(status.length).toBeGreaterThan(1);
        expect(status.filter((s) => s.id === "status")).toHaveLength(1);
        for (const s of status.filter((s) => s.id !== "status")) expect(s.id).toBe(`corpus:${s.path}`);
      });
    });
  }
});
