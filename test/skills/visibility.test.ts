import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/kernel/logger.js";
import { callerView, WholeCatalog } from "../../src/skills/catalog/catalog.js";
import type { CatalogSource, SourceSkill } from "../../src/skills/types.js";
import { canSee, type Identity } from "../../src/skills/catalog/visibility.js";

const ada: Identity = { subject: "ada", scopes: ["skills:read"], claims: { groups: ["platform", "ops"] } };
const bob: Identity = { subject: "bob", scopes: ["skills:finance"], claims: { groups: "sales" } };

function source(name: string, skills: string[]): CatalogSource {
  const reported: SourceSkill[] = skills.map((skill, rank) => ({
    name: skill,
    description: `${skill} of ${name}`,
    path: skill,
    frontmatter: {},
    excerpt: "",
    rank,
  }));
  const none = () => Promise.reject(new Error("not read here"));
  return {
    name,
    description: name,
    load: async () => ({ skills: reported, diagnostics: [] }),
    readDocument: none,
    listFiles: none,
    readFile: none,
  };
}

describe("canSee", () => {
  it("admits any listed scope or claim value, nothing restricted without an identity", () => {
    expect(canSee(undefined, undefined)).toBe(true);
    expect(canSee({ claims: { groups: ["platform"] } }, ada)).toBe(true);
    expect(canSee({ claims: { groups: ["platform"] } }, bob)).toBe(false);
    expect(canSee({ claims: { groups: ["sales"] } }, bob)).toBe(true);
    expect(canSee({ scopes: ["skills:finance"] }, bob)).toBe(true);
    expect(canSee({ scopes: ["skills:finance"] }, undefined)).toBe(false);
    expect(canSee({ claims: { toString: ["x"] } }, ada)).toBe(false);
  });
});

describe("callerView", () => {
  it("resolves identity among the visible sources only: a hidden skill shadows and suggests nothing", async () => {
    const catalog = new WholeCatalog(createLogger("error"));
    catalog.addSource(source("team", ["deploy", "handbook"]), { visibleTo: { claims: { groups: ["platform"] } } });
    catalog.addSource(source("company", ["handbook"]));
    await catalog.refresh();
    // A caller who sees every source still gets a view, answering from the whole catalog's state.
    const member = callerView(catalog, ada);
    expect(member).not.toBe(catalog);
    expect(member.list()).toBe(catalog.list());
    expect(member.list().map((s) => s.id)).toEqual(["deploy", "handbook", "company:handbook"]);
    const outsider = callerView(catalog, bob);
    expect(callerView(catalog, { ...bob, subject: "carol" })).toBe(outsider);
    expect(outsider.list().map((s) => `${s.id} ${s.shadowed}`)).toEqual(["handbook false"]);
    expect(outsider.sources.map((s) => s.name)).toEqual(["company"]);
    expect(() => outsider.resolve("deploy")).toThrow(/^no skill named "deploy"$/);
    expect(() => outsider.resolve("deplo")).toThrow(/^no skill named "deplo"$/);
    expect(() => outsider.resolve("team:deploy")).toThrow(/^no skill named "team:deploy"$/);
    expect(() => outsider.resolve("deploy", "team")).toThrow(/^no source named "team"; sources: company$/);
    await expect(outsider.readDocument(catalog.get("deploy")!, 10)).rejects.toThrow(/^no skill named "deploy"$/);
    expect(catalog.restricted).toBe(true);
  });

  it("reloads only the sources a view shows: a hidden source named is no source", async () => {
    let loads = 0;
    const counted = { ...source("team", ["deploy"]), load: async () => (loads++, { skills: [], diagnostics: [] }) };
    const catalog = new WholeCatalog(createLogger("error"));
    catalog.addSource(counted, { visibleTo: { claims: { groups: ["platform"] } } });
    catalog.addSource(source("company", ["handbook"]));
    await catalog.refresh();
    const outsider = callerView(catalog, bob);
    await outsider.refresh("team");
    await outsider.refresh(["team", "company"]);
    await outsider.refresh();
    expect(loads).toBe(1);
    await callerView(catalog, ada).refresh("team");
    expect(loads).toBe(2);
  });
});
