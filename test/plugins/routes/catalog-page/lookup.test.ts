import { describe, expect, it } from "vitest";
import { lookUp } from "../../../../src/plugins/routes/catalog-page/lookup.js";
import type { CatalogSkill } from "../../../../src/skills/catalog/catalog-types.js";

const skill = (source: string, name: string, shadowed = false) =>
  ({
    id: shadowed ? `${source}:${name}` : name,
    qualifiedId: `${source}:${name}`,
    name,
    source,
    shadowed,
    description: name,
    path: name,
  }) as unknown as CatalogSkill;

describe("a skill page's id", () => {
  const pdf = skill("my-skills", "pdf");
  const teamHandbook = skill("team", "handbook");
  const publicHandbook = skill("public", "handbook", true);
  const skills = [pdf, teamHandbook, publicHandbook];

  it("reaches a skill by its qualified id", () => {
    expect(lookUp(skills, "my-skills:pdf")).toEqual({ skill: pdf });
    expect(lookUp(skills, "public:handbook")).toEqual({ skill: publicHandbook });
  });

  it("reaches a skill by a plain name no other skill in view shares", () => {
    expect(lookUp(skills, "pdf")).toEqual({ skill: pdf });
    // Where the caller sees one handbook only, its name is unique.
    expect(lookUp([pdf, publicHandbook], "handbook")).toEqual({ skill: publicHandbook });
  });

  it("lists the skills a shared name could mean rather than pick one", () => {
    expect(lookUp(skills, "handbook")).toEqual({ candidates: [teamHandbook, publicHandbook] });
  });

  it("finds nothing for a name or id no skill in view has", () => {
    expect(lookUp(skills, "docx")).toEqual({ none: true });
    expect(lookUp(skills, "other:pdf")).toEqual({ none: true });
    expect(lookUp([], "pdf")).toEqual({ none: true });
  });
});
