import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { createKernel } from "../../../../src/create-kernel.js";
import { definePlugin } from "../../../../src/kernel/config.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { CatalogSkill } from "../../../../src/skills/catalog/catalog-types.js";
import type { Ranker } from "../../../../src/skills/types.js";
import { TOKENS } from "../../../../src/tokens.js";

/** A ranker that answers asynchronously, as an embeddings or remote ranker must. */
function slowRanker(): Ranker {
  let skills: CatalogSkill[] = [];
  return {
    name: "slow",
    build: (all) => void (skills = [...all]),
    add: (more) => void skills.push(...more),
    remove: (ids) => void (skills = skills.filter((s) => !ids.includes(s.qualifiedId))),
    search: async (query) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return skills.filter((s) => s.name.includes(query)).map((skill) => ({ skill, score: 100 }));
    },
  };
}

it("search_skills awaits a ranker whose search returns a promise", async () => {
  const ranker = definePlugin({
    name: "slow-ranker",
    provides: [TOKENS.Ranker],
    setup: (ctx) => ctx.provideScoped(TOKENS.Ranker, () => slowRanker()),
  });
  const fixtures = new URL("../../../fixtures/skills", import.meta.url).pathname;
  const kernel = await createKernel({
    config: { plugins: [["fs", { roots: [fixtures] }], "search-skills", ranker] },
    logger: createLogger("silent"),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "t", version: "0" });
  await client.connect(clientSide);
  await kernel.catalog.ready();
  const first = kernel.catalog.list()[0]!;
  const result = await client.callTool({ name: "search_skills", arguments: { query: first.name } });
  expect(result.isError).toBeFalsy();
  const ids = (result.structuredContent as { results: { id: string }[] }).results.map((r) => r.id);
  expect(ids).toContain(first.id);
  await client.close();
  await kernel.close();
});
