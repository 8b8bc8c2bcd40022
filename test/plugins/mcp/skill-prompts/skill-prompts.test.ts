import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin } from "../../../../src/kernel/config.js";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import skillPrompts from "../../../../src/plugins/mcp/skill-prompts/index.js";
import { startSkillServer, type SkillServer } from "../../../helpers/skill-server.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

describe("the skill-prompts plugin", () => {
  let root: string | undefined;
  let server: SkillServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function serve(plugins: unknown[]) {
    root = await tempDir();
    for (const name of ["alpha", "beta", "gamma"]) await writeSkillFile(root, name, skillMd(name));
    server = await startSkillServer([root], plugins as never);
    return server;
  }

  it("is a built-in", async () => {
    expect(await builtinPlugins["skill-prompts"]!()).toBe(skillPrompts);
  });

  it("gives the first maxSkillPrompts skills a prompt, and says once how many it left to the skills prompt", async () => {
    const { client, logs } = await serve([["skill-prompts", { maxSkillPrompts: 2 }]]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["skills", "alpha", "beta"]);
    const listing = await client.getPrompt({ name: "skills", arguments: { skill: "gamma" } });
    expect(listing.messages[1]!.content).toMatchObject({ resource: { uri: "skill://gamma/SKILL.md" } });
    expect(
      logs.filter((line) => line.includes("1 skill has no prompt of its own past maxSkillPrompts (2)")),
    ).toHaveLength(1);
  });

  it("registers the skills' prompts when the client first asks for prompts, not with each server", async () => {
    const { client, logs } = await serve([["skill-prompts", { maxSkillPrompts: 2 }]]);
    await client.ping();
    const leftOut = () => logs.filter((line) => line.includes("past maxSkillPrompts (2)"));
    expect(leftOut()).toEqual([]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["skills", "alpha", "beta"]);
    expect(leftOut()).toHaveLength(1);
  });

  it("registers the skills' prompts with the server when the SDK names no prompt completion to wrap", async () => {
    const sdkWithout = definePlugin({
      name: "sdk-without-prompt-completion",
      setup: (ctx) =>
        ctx.extendServer((server) => {
          Object.defineProperty(server, "handlePromptCompletion", { value: undefined, writable: true });
        }),
    });
    const { client, logs } = await serve([sdkWithout, ["skill-prompts", { maxSkillPrompts: 2 }]]);
    await client.ping();
    expect(logs.filter((line) => line.includes("past maxSkillPrompts (2)"))).toHaveLength(1);
  });

  it("gets a skill's prompt, or completes its argument, asked before any prompts/list", async () => {
    const { client } = await serve(["skill-prompts"]);
    const got = await client.getPrompt({ name: "beta" });
    expect(got.messages.map((message) => message.content)).toContainEqual(
      expect.objectContaining({ resource: expect.objectContaining({ uri: "skill://beta/SKILL.md" }) }),
    );
    await server!.close();
    const again = await serve(["skill-prompts"]);
    server = again;
    const completed = await again.client.complete({
      ref: { type: "ref/prompt", name: "gamma" },
      argument: { name: "file", value: "" },
    });
    expect(completed.completion.values).toEqual([]);
  });

  it("leaves a prompt name another plugin registered first to that plugin, and says so", async () => {
    const other = definePlugin({
      name: "other-prompts",
      setup: (ctx) =>
        ctx.extendServer((server) => {
          server.registerPrompt("beta", { description: "Not the skill." }, () => ({ messages: [] }));
        }),
    });
    const { client, logs } = await serve([other, "skill-prompts"]);
    const { prompts } = await client.listPrompts();
    expect(prompts.find((prompt) => prompt.name === "beta")?.description).toBe("Not the skill.");
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(["alpha", "beta", "gamma", "skills"]);
    expect(logs.some((line) => line.includes("no prompt for skill beta: Prompt beta is already registered"))).toBe(
      true,
    );
  });
});
