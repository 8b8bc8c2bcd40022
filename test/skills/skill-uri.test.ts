import { describe, expect, it } from "vitest";
import { WholeCatalog } from "../../src/skills/catalog/catalog.js";
import { createLogger } from "../../src/kernel/logger.js";
import { mapSkillUris, noSkillAt, parseSkillUri, skillFileUri } from "../../src/skills/files/skill-uri.js";
import type { CatalogSource, SourceSkill } from "../../src/skills/types.js";

const skill = (name: string, path: string, rank = 0): SourceSkill => ({
  name,
  description: `${name} at ${path}`,
  path,
  frontmatter: Object.create(null),
  excerpt: "",
  rank,
});

function source(name: string, skills: SourceSkill[]): CatalogSource {
  const noFiles = () => Promise.reject(new Error("not in this test"));
  return {
    name,
    description: name,
    load: async () => ({ skills, diagnostics: [] }),
    readDocument: noFiles,
    listFiles: noFiles,
    readFile: noFiles,
  };
}

async function mapOf(...sources: CatalogSource[]) {
  const catalog = new WholeCatalog(createLogger("silent"));
  for (const s of sources) catalog.addSource(s);
  await catalog.refresh();
  return { catalog, map: mapSkillUris(catalog.list()) };
}

const uris = (map: ReturnType<typeof mapSkillUris>) => map.mapped.map((entry) => [entry.skill.id, entry.uri]);
const reasons = (map: ReturnType<typeof mapSkillUris>) =>
  map.unmapped.map((entry) => [entry.skill.qualifiedId, entry.code]);

describe("skill URIs", () => {
  it("end with the name: plain for the skill the name reaches, after the source for a shadowed one", async () => {
    const { map } = await mapOf(source("project", [skill("pdf", "docs/pdf")]), source("user", [skill("pdf", "pdf")]));
    expect(uris(map)).toEqual([
      ["pdf", "skill://pdf/SKILL.md"],
      ["user:pdf", "skill://user/pdf/SKILL.md"],
    ]);
    expect(map.mapped[0]!.root).toBe("skill://pdf");
  });

  it("put a repeated name's folders between source and name, as its path-qualified id does", async () => {
    const { map } = await mapOf(source("project", [skill("run", "a/run"), skill("run", "b/run")]));
    expect(uris(map)).toEqual([
      ["run", "skill://run/SKILL.md"],
      ["project:b/run", "skill://project/b/run/SKILL.md"],
    ]);
  });

  it("place a nested skill under the skill it is nested in, so its files keep one URI", async () => {
    const { map } = await mapOf(
      source("project", [
        skill("tools", "tools"),
        skill("convert", "tools/convert"),
        skill("deep", "tools/convert/x/deep"),
      ]),
    );
    expect(uris(map)).toEqual([
      ["tools", "skill://tools/SKILL.md"],
      ["convert", "skill://tools/convert/SKILL.md"],
      ["deep", "skill://tools/convert/x/deep/SKILL.md"],
    ]);
    const inner = map.locate(["tools", "convert", "notes.md"]);
    expect([inner?.mapped.skill.name, inner?.path]).toEqual(["convert", "notes.md"]);
    const outer = map.locate(["tools", "README.md"]);
    expect([outer?.mapped.skill.name, outer?.path]).toEqual(["tools", "README.md"]);
    expect(map.locate(["tools"])?.path).toBe("");
  });

  it("give no URI to a nested skill whose folder is not its name, nor to one under another's path", async () => {
    const { map } = await mapOf(
      source("project", [skill("tools", "tools"), skill("convert", "tools/converter"), skill("user", "user")]),
      source("user", [skill("tools", "tools")]),
    );
    // user:tools would be skill://user/tools, inside the files of the skill named "user".
    expect(reasons(map)).toEqual([
      ["project:convert", "nested-name-mismatch"],
      ["user:tools", "uri-conflict"],
    ]);
    expect(map.unmapped[1]!.message).toBe("its URI would fall under skill://user/SKILL.md (project:user)");
  });

  it("give no URI to a name no URI can hold, and encode every other character", async () => {
    const { map } = await mapOf(
      source("project", [skill("..", "dots"), skill("a/b", "slash"), skill("Ünïcode name", "u")]),
    );
    expect(reasons(map)).toEqual([
      ["project:..", "uri-unwritable"],
      ["project:a/b", "uri-unwritable"],
    ]);
    const [mapped] = map.mapped;
    expect(mapped!.uri).toBe("skill://%C3%9Cn%C3%AFcode%20name/SKILL.md");
    expect(new URL(mapped!.uri).href).toBe(mapped!.uri);
    expect(parseSkillUri(mapped!.uri)).toEqual({ segments: ["Ünïcode name", "SKILL.md"] });
  });

  it("write file URIs that survive URL parsing unchanged and parse back to the same path", async () => {
    const { map } = await mapOf(source("my source", [skill("pdf", "pdf")]), source("x", [skill("pdf", "pdf")]));
    const shadowed = map.get("x:pdf")!;
    for (const path of ["a b/100%.md", "(x)/it's!~*.txt", "深/ファイル.md", "SKILL.md"]) {
      const uri = skillFileUri(shadowed, path);
      expect(new URL(uri).href).toBe(uri);
      const parsed = parseSkillUri(uri);
      expect("segments" in parsed && map.locate(parsed.segments)).toMatchObject({ mapped: shadowed, path });
    }
  });

  it("parse only skill:// URIs whose segments decode to something a path can hold", () => {
    expect(parseSkillUri("skill://a/b%2Fc")).toEqual({ problem: "it holds an encoded '/'" });
    expect(parseSkillUri("skill://a//b")).toEqual({ problem: "it has an empty segment (a doubled or trailing '/')" });
    expect(parseSkillUri("skill://a/b?x=1")).toEqual({ problem: "a skill URI has no query, fragment, user or port" });
    expect(parseSkillUri("file:///etc/passwd")).toMatchObject({
      problem: expect.stringContaining("scheme is not skill:"),
    });
    expect(parseSkillUri("skill://a/%ZZ")).toEqual({ problem: "it is not valid percent-encoding" });
    // URL parsing resolves dot segments before anything is looked up.
    expect(parseSkillUri("skill://a/x/../../SKILL.md")).toEqual({ segments: ["a", "SKILL.md"] });
  });

  it("suggest the URIs an unknown one may have meant", async () => {
    const { map } = await mapOf(source("project", [skill("pdf", "pdf")]), source("user", [skill("pdf", "pdf")]));
    expect(noSkillAt(map, "skill://project/pdf/SKILL.md", ["project", "pdf", "SKILL.md"])).toBe(
      "no skill is served at skill://project/pdf/SKILL.md; did you mean skill://pdf/SKILL.md, skill://user/pdf/SKILL.md?",
    );
    expect(noSkillAt(map, "skill://zzz/SKILL.md", ["zzz", "SKILL.md"])).toBe(
      "no skill is served at skill://zzz/SKILL.md",
    );
  });

  it("is computed once per catalog listing", async () => {
    const { catalog, map } = await mapOf(source("project", [skill("pdf", "pdf")]));
    expect(mapSkillUris(catalog.list())).toBe(map);
  });
});
