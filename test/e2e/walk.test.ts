import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, type Runtime } from "../helpers/cli.js";
import { CORPORA } from "../helpers/corpus.js";

type Connected = Awaited<ReturnType<typeof connectCli>>;

interface SearchAnswer {
  query: string;
  total: number;
  results: { id: string; name: string; description: string; source: string; score: number; match_quality: string }[];
}
interface ReadAnswer {
  id: string;
  content: string;
  files: string[];
  omitted_files: number;
}
interface FetchAnswer {
  files: ({ path: string; content: string; encoding: string; size: number } | { path: string; error: string })[];
}

// Progressive disclosure, end to end: search (metadata) -> read (SKILL.md + file list) -> fetch
// (listed files only), by the official SDK client driving the real CLI over stdio.
describe.each(Object.keys(RUNTIMES) as Runtime[])("search, read, fetch over stdio on %s", (runtime) => {
  for (const corpus of CORPORA) {
    describe.skipIf(!corpus.present)(corpus.title(`on ${corpus.label}`), () => {
      let server: Connected;
      beforeAll(async () => {
        server = await connectCli(["--skills-dir", corpus.dir], { runtime });
      });
      afterAll(async () => {
        await server?.client.close();
      });

      it("lists every step's tool with its annotations", async () => {
        const { tools } = await server.client.listTools();
        const byName = new Map(tools.map((t) => [t.name, t]));
        for (const name of ["list_skills", "search_skills", "read_skill", "fetch_skill_files", "validate_skill"]) {
          expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
        }
        expect(byName.get("install_skill")?.annotations?.destructiveHint).toBe(true);
      });

      it("finds a skill, reads it, and fetches only what it lists", async () => {
        const search = await server.client.callTool({
          name: "search_skills",
          arguments: { query: "animated GIF for Slack", limit: 3 },
        });
        expect(search.isError).toBeFalsy();
        const found = search.structuredContent as unknown as SearchAnswer;
        expect(found.results.length).toBeGreaterThan(0);
        expect(found.results.map((r) => r.name)).toContain("slack-gif-creator");
        expect(JSON.stringify(found)).not.toContain("## "); // metadata only, never bodies

        const read = await server.client.callTool({
          name: "read_skill",
          arguments: { skill_name: "slack-gif-creator" },
        });
        const skill = read.structuredContent as unknown as ReadAnswer;
        expect(skill.content).toMatch(/^---\nname: slack-gif-creator/);
        expect(skill.files.length).toBeGreaterThan(0);

        const wanted = skill.files.slice(0, 2);
        const fetched = await server.client.callTool({
          name: "fetch_skill_files",
          arguments: { skill_name: "slack-gif-creator", file_paths: [...wanted, "../../../MANIFEST.tsv"] },
        });
        const answer = fetched.structuredContent as unknown as FetchAnswer;
        expect(answer.files.map((f) => f.path)).toEqual([...wanted, "../../../MANIFEST.tsv"]);
        for (const file of answer.files.slice(0, 2)) expect(file).toHaveProperty("encoding");
        expect(answer.files[2]).toHaveProperty("error");
        expect(JSON.stringify(answer)).not.toContain("source_repo\tcommit");
      });

      it("suggests close names for an unknown skill", async () => {
        const read = await server.client.callTool({
          name: "read_skill",
          arguments: { skill_name: "slack-gif-creater" },
        });
        expect(read.isError).toBe(true);
        expect(JSON.stringify(read.content)).toContain("slack-gif-creator");
      });
    });
  }
});
