import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { definePlugin, type PluginEntry } from "../../../../src/kernel/config.js";
import type { CatalogSource } from "../../../../src/skills/types.js";
import { TOKENS } from "../../../../src/tokens.js";
import { startSkillServer, type SkillServer } from "../../../helpers/skill-server.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/skills", import.meta.url));

/** A remote-like source: serves one skill until `down` is set, then every load throws. */
function flakySource(state: { down: boolean }): CatalogSource {
  const refuse = () => Promise.reject(new Error("not in this test"));
  return {
    name: "remote",
    description: "a flaky remote",
    async load() {
      if (state.down) throw new Error("connect ECONNREFUSED 127.0.0.1:9");
      return {
        skills: [
          { name: "far-away", description: "A remote skill.", path: "far-away", frontmatter: {}, excerpt: "", rank: 0 },
        ],
        diagnostics: [],
      };
    },
    readDocument: refuse,
    listFiles: refuse,
    readFile: refuse,
  };
}

let server: SkillServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A failing source's state is the subject: the audit a remote source gets by default would read its files too. */
const OFF: PluginEntry = ["skill-policy", { audit: { "*": "off" } }];

it("says which source is stale or failed in list_skills, and still lists the others", async () => {
  const state = { down: false };
  const remote = definePlugin({
    name: "remote",
    provides: [TOKENS.CatalogSource],
    setup: (ctx) => ctx.contribute(TOKENS.CatalogSource, flakySource(state)),
  });
  server = await startSkillServer([FIXTURES], ["list-skills", remote, OFF]);
  const list = async () =>
    (await server!.call("list_skills", { format: "json" })).structuredContent as {
      skills: { id: string }[];
      unavailable_sources?: unknown;
    };

  expect((await list()).unavailable_sources).toBeUndefined();
  state.down = true;
  await server.kernel.catalog.refresh("remote");
  const stale = await list();
  expect(stale.skills.map((s) => s.id)).toContain("far-away");
  expect(stale.unavailable_sources).toEqual([
    { source: "remote", state: "stale", error: "connect ECONNREFUSED 127.0.0.1:9" },
  ]);
  const text = (await server.call("list_skills", {})).content.map((c) => (c.type === "text" ? c.text : "")).join("");
  expect(text).toContain(
    'Note: source "remote" could not be reloaded (connect ECONNREFUSED 127.0.0.1:9); its skills are from its last good load.',
  );
});

it("reports a source that never loaded as failed", async () => {
  const remote = definePlugin({
    name: "remote",
    provides: [TOKENS.CatalogSource],
    setup: (ctx) => ctx.contribute(TOKENS.CatalogSource, flakySource({ down: true })),
  });
  server = await startSkillServer([FIXTURES], ["list-skills", remote, OFF]);
  const result = (await server.call("list_skills", { format: "json" })).structuredContent as {
    skills: { id: string }[];
    unavailable_sources?: unknown;
  };
  expect(result.skills.length).toBeGreaterThan(0);
  expect(result.unavailable_sources).toEqual([
    { source: "remote", state: "failed", error: "connect ECONNREFUSED 127.0.0.1:9" },
  ]);
});
