import { describe, expect, it } from "vitest";
import type { McpServer } from "@modelcontextprotocol/server";
import { WholeCatalog } from "../../../../src/skills/catalog/catalog.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { CatalogSource, SourceSkill } from "../../../../src/skills/types.js";
import { announceSkillChanges } from "../../../../src/plugins/core/catalog/announce.js";

describe("announcing skill changes", () => {
  it("tells the client resources and prompts changed, only once it has opened, and stops when the server closes", async () => {
    let skills: SourceSkill[] = [];
    const noFiles = () => Promise.reject(new Error("not in this test"));
    const source: CatalogSource = {
      name: "s",
      description: "s",
      load: async () => ({ skills, diagnostics: [] }),
      readDocument: noFiles,
      listFiles: noFiles,
      readFile: noFiles,
    };
    const catalog = new WholeCatalog(createLogger("silent"));
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
        notification: () => Promise.resolve(),
      },
    } as unknown as McpServer;
    const stop = announceSkillChanges(fakeServer, catalog, createLogger("silent"));
    const add = async (name: string) => {
      skills = [...skills, { name, description: name, path: name, frontmatter: {}, excerpt: "", rank: 0 }];
      await catalog.refresh();
    };
    // Nothing is sent before the client's opening (here the first load, which is also awaited).
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

  // The first load lands after the opening (Deno answers initialize sooner than a folder loads).
  it.each([
    ["says nothing of a source's first load: every answer waited for it", undefined, []],
    [
      "announces a first load that came after answers stopped waiting (answerWithin passed)",
      0,
      ["resources", "prompts"],
    ],
  ] as const)("%s", async (_title, answerWithinMs, expected) => {
    const noFiles = () => Promise.reject(new Error("not in this test"));
    const skills: SourceSkill[] = [
      { name: "one", description: "one", path: "one", frontmatter: {}, excerpt: "", rank: 0 },
    ];
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource({
      name: "s",
      description: "s",
      load: async () => ({ skills, diagnostics: [] }),
      readDocument: noFiles,
      listFiles: noFiles,
      readFile: noFiles,
    });
    if (answerWithinMs !== undefined) catalog.answerWithin(answerWithinMs);
    const sent: string[] = [];
    const notified: string[] = [];
    const fakeServer = {
      isConnected: () => true,
      sendResourceListChanged: () => void sent.push("resources"),
      sendPromptListChanged: () => void sent.push("prompts"),
      server: {
        getNegotiatedProtocolVersion: () => "2025-11-25",
        getCapabilities: () => ({ resources: {}, prompts: {} }),
        notification: (message: { method: string }) => void notified.push(message.method),
      },
    } as unknown as McpServer;
    announceSkillChanges(fakeServer, catalog, createLogger("silent"));
    // What the SDK says by itself when a prompt is registered for the new skill.
    catalog.onChange(() => void fakeServer.server.notification({ method: "notifications/prompts/list_changed" }));
    await catalog.refresh();
    expect(sent).toEqual(expected);
    expect(notified).toEqual(answerWithinMs === undefined ? [] : ["notifications/prompts/list_changed"]);
  });
});
