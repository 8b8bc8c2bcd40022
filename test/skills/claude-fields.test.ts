import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boot, type Booted } from "../plugins/tools/validate-skill/kernel.js";

/** Claude Code's frontmatter fields through the tools, the prompts and the catalog summary. */
let dir: string;
let booted: Booted;

const skill = async (name: string, extra: string, body = "Do the thing.") => {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: A ${name} skill.\n${extra}---\n\n# ${name}\n\n${body}\n`);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sk-claude-fields-"));
  await skill("changelog", "when_to_use: whenever a release needs its zebra notes written\n");
  await skill("deploy-prod", "disable-model-invocation: true\nargument-hint: \"[environment]\"\n");
  await skill("background", "user-invocable: false\n");
  await skill("plain", "custom-field: kept as written\n");
});

// boot's kernel and client close after each test.
beforeEach(async () => {
  booted = await boot([["fs", { roots: [{ path: dir }], watch: false }], "list-skills", "search-skills", "read-skill", "skill-prompts", "catalog-summary"], dir);
  await booted.kernel.catalog.ready();
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("Claude Code frontmatter", () => {
  it("when_to_use is searched beside the description", async () => {
    const found = await booted.call("search_skills", { query: "zebra notes" });
    expect(found.structured.results.map((result: { name: string }) => result.name)).toEqual(["changelog"]);
  });

  it("disable-model-invocation keeps a skill out of search, list_skills and the summary, but it reads by name and stays a prompt", async () => {
    const found = await booted.call("search_skills", { query: "deploy-prod skill" });
    expect(found.structured.results.map((result: { name: string }) => result.name)).not.toContain("deploy-prod");
    const listed = await booted.call("list_skills", {});
    expect(listed.text).not.toContain("deploy-prod");
    expect(listed.text).toContain("changelog");
    expect(booted.client.getInstructions() ?? "").not.toContain("deploy-prod");
    const read = await booted.call("read_skill", { skill_name: "deploy-prod" });
    expect(read.isError).toBe(false);
    const prompts = (await booted.client.listPrompts()).prompts;
    const deploy = prompts.find((prompt) => prompt.name === "deploy-prod");
    expect(deploy).toBeDefined();
  });

  it("user-invocable: false gives no prompt; unknown fields pass through", async () => {
    const names = (await booted.client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toContain("plain");
    expect(names).not.toContain("background");
    expect(booted.kernel.catalog.get("plain")!.frontmatter["custom-field"]).toBe("kept as written");
  });
});
