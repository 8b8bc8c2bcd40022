import { describe, expect, it } from "vitest";
import type { McpServer } from "@modelcontextprotocol/server";
import { SkillCatalog } from "../../../../src/skills/catalog.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { SkillSource, SourceSkill } from "../../../../src/skills/types.js";
import { announceSkillChanges } from "../../../../src/plugins/core/catalog/announce.js";

describe("announcing skill changes", () => {
  it("tells the client resources and prompts changed, only once it has opened, and stops when the server closes", async () => {
    let skills: SourceSkill[] = [];
    const noFiles = () => Promise.reject(new Error("not in this test"));
    const source: SkillSource = {
      name: "s",
      description: "s",
      load: async () => ({ skills, diagnostics: [] }),
      readDocument: noFiles,
      listFiles: noFiles,
      readFile: noFiles,
    };
    const catalog = new SkillCatalog(createLogger("silent"));
    catalog.addSource(source);

    const sent: string[] = [];
    let opened = false;
    let offered: Record<string, unknown> = { resources: {} };
    const fakeServer = {
      isConnected: () => true,
      sendResourceListChanged: () => void sent.push("resources"),
      sendPromptListChanged: () => void sent.push("prompts"),
      server: {
        getNegotiatedProtocolVersion: () => (opened ? "2026-07-28" : undefined),
        getCapabilities: () => offered,
      },
    } as unknown as McpServer;
    const stop = announceSkillChanges(fakeServer, catalog, createLogger("silent"));
    const add = async (name: string) => {
      skills = [...skills, { name, description: name, path: name, frontmatter: {}, excerpt: "", rank: 0 }];
      await catalog.refresh();
    };
    // Nothing is sent before the client's opening.
    await add("early");
    expect(sent).toEqual([]);
    opened = true;
    await add("one");
    expect(sent).toEqual(["resources"]);
    offered = { resources: {}, prompts: {} };
    await add("two");
    expect(sent).toEqual(["resources", "resources", "prompts"]);
    stop();
    await add("three");
    expect(sent).toHaveLength(3);
  });
});
