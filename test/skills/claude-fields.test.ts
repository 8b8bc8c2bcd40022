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
  await writeFile(
    join(dir, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: A ${name} skill.\n${extra}---\n\n# ${name}\n\n${body}\n`,
  );
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sk-claude-fields-"));
  await skill("changelog", "when_to_use: whenever a release needs its zebra notes written\n");
  await skill("deploy-prod", 'disable-model-invocation: true\nargument-hint: "[environment]"\n');
  await skill("background", "user-invocable: false\n");
  await skill("plain", "custom-field: kept as written\n");
});

// boot's kernel and client close after each test.
beforeEach(async () => {
  booted = await boot(
    [
      ["fs", { roots: [{ path: dir }], watch: false }],
      "list-skills",
      "search-skills",
      "read-skill",
      "skill-prompts",
      "catalog-summary",
    ],
    dir,
  );
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

  it("when_to_use is shown by list_skills (json and full) and read_skill, and absent for a skill without one", async () => {
    const json = await booted.call("list_skills", { format: "json" });
    const listed = Object.fromEntries(
      json.structured.skills.map((entry: { name: string; when_to_use?: string }) => [entry.name, entry.when_to_use]),
    );
    expect(listed).toEqual({ changelog: "whenever a release needs its zebra notes written", plain: undefined });
    expect(JSON.parse(json.text).skills.find((entry: { name: string }) => entry.name === "changelog").when_to_use).toBe(
      "whenever a release needs its zebra notes written",
    );
    const full = await booted.call("list_skills", { format: "full" });
    expect(full.text).toContain("A changelog skill.\n\nWhen to use: whenever a release needs its zebra notes written");
    const names = await booted.call("list_skills", {});
    expect(names.structured.skills[0]).not.toHaveProperty("when_to_use");
    const read = await booted.call("read_skill", { skill_name: "changelog" });
    expect(read.structured.when_to_use).toBe("whenever a release needs its zebra notes written");
    expect((await booted.call("read_skill", { skill_name: "plain" })).structured).not.toHaveProperty("when_to_use");
  });

  it("argument-hint describes the prompt's arguments argument, whose value reaches the first message; without one, no such argument", async () => {
    const prompts = (await booted.client.listPrompts()).prompts;
    const deploy = prompts.find((prompt) => prompt.name === "deploy-prod")!;
    expect(deploy.arguments?.find((argument) => argument.name === "arguments")).toEqual({
      name: "arguments",
      description: "[environment]",
      required: false,
    });
    expect(prompts.find((prompt) => prompt.name === "plain")!.arguments?.map((argument) => argument.name)).toEqual([
      "file",
    ]);
    const got = await booted.client.getPrompt({ name: "deploy-prod", arguments: { arguments: "staging" } });
    expect(got.messages[0]!.content).toMatchObject({
      type: "text",
      text: expect.stringMatching(/\n\nArguments: staging$/),
    });
    const bare = await booted.client.getPrompt({ name: "deploy-prod" });
    expect((bare.messages[0]!.content as { text: string }).text).not.toContain("Arguments");
  });

  it("a prompt follows its skill's argument-hint when it changes", async () => {
    await skill("plain", 'custom-field: kept as written\nargument-hint: "[file]"\n');
    try {
      await booted.kernel.catalog.refresh();
      const plain = (await booted.client.listPrompts()).prompts.find((prompt) => prompt.name === "plain")!;
      expect(plain.arguments?.map((argument) => [argument.name, argument.description])).toEqual([
        ["arguments", "[file]"],
        ["file", expect.any(String)],
      ]);
      const got = await booted.client.getPrompt({ name: "plain", arguments: { arguments: "notes.md" } });
      expect((got.messages[0]!.content as { text: string }).text).toMatch(/Arguments: notes\.md$/);
    } finally {
      await skill("plain", "custom-field: kept as written\n");
    }
  });

  it("user-invocable: false gives no prompt; unknown fields pass through", async () => {
    const names = (await booted.client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toContain("plain");
    expect(names).not.toContain("background");
    expect(booted.kernel.catalog.get("plain")!.frontmatter["custom-field"]).toBe("kept as written");
  });
});
