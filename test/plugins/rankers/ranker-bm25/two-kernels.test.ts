import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bm25Ranker } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
import { definePlugin } from "../../../../src/kernel/config.js";
import { TOKENS } from "../../../../src/tokens.js";
import { startSkillServer, type SkillServer } from "../../../helpers/skill-server.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

/** Two catalogs with no word in common but the skill format's own. */
const CATALOGS = {
  ships: [
    ["sailing-knots", "Ties bowline and cleat hitches for sailing yachts."],
    ["harbour-charts", "Reads nautical charts, tides and harbour soundings."],
    ["rigging-check", "Inspects rigging, shrouds and halyards before sailing."],
  ],
  kitchen: [
    ["sourdough-starter", "Feeds a sourdough starter and bakes rustic loaves."],
    ["knife-skills", "Teaches julienne, brunoise and chiffonade knife cuts."],
    ["spice-blends", "Mixes garam masala, za'atar and ras el hanout blends."],
  ],
} as const;
type Catalog = keyof typeof CATALOGS;
const QUERIES = ["sailing", "charts and tides", "sourdough loaves", "knife julienne", "masala", "halyard"];

async function writeCatalog(catalog: Catalog): Promise<string> {
  const root = await tempDir();
  for (const [name, description] of CATALOGS[catalog]) await writeSkillFile(root, name, skillMd(name, description));
  return root;
}

/** Each kernel's BM25 rankers, as its ranker plugin makes them for its consumers (search-skills). */
const made = new Map<SkillServer["kernel"], Bm25Ranker[]>();

async function serve(root: string): Promise<SkillServer> {
  const mine: Bm25Ranker[] = [];
  const bm25 = definePlugin({
    name: "ranker-bm25",
    provides: [TOKENS.Ranker],
    setup: (ctx) => ctx.provideScoped(TOKENS.Ranker, () => (mine.push(new Bm25Ranker()), mine.at(-1)!)),
  });
  const server = await startSkillServer([root], [bm25, "search-skills"]);
  made.set(server.kernel, mine);
  return server;
}

async function results(server: SkillServer): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const query of QUERIES) answers.push((await server.call("search_skills", { query })).structuredContent);
  return answers;
}

/** search-skills' ranker: the one its kernel made (each consumer gets its own). */
function ranker(server: SkillServer): Bm25Ranker {
  const [ranker, ...others] = made.get(server.kernel) ?? [];
  if (!ranker || others.length > 0) throw new Error("expected one bm25 ranker, search-skills'");
  return ranker;
}

describe("two kernels in one process", () => {
  const alone: Partial<Record<Catalog, unknown[]>> = {};
  let ships: SkillServer;
  let kitchen: SkillServer;

  beforeAll(async () => {
    const roots = { ships: await writeCatalog("ships"), kitchen: await writeCatalog("kitchen") };
    for (const catalog of ["ships", "kitchen"] as const) {
      const server = await serve(roots[catalog]);
      alone[catalog] = await results(server);
      await server.close();
    }
    ships = await serve(roots.ships);
    kitchen = await serve(roots.kitchen);
  });
  afterAll(async () => {
    await ships?.close();
    await kitchen?.close();
  });

  it("answer every query as each does alone", async () => {
    // Interleaved, so each kernel's index is built while the other's exists.
    const [shipResults, kitchenResults] = await Promise.all([results(ships), results(kitchen)]);
    expect(shipResults).toEqual(alone.ships);
    expect(kitchenResults).toEqual(alone.kitchen);
  });

  it("number only the terms of their own catalog", async () => {
    await results(ships);
    await results(kitchen);
    expect(ranker(ships).terms.number("sail")).toBeDefined();
    expect(ranker(ships).terms.number("sourdough")).toBeUndefined();
    expect(ranker(kitchen).terms.number("sourdough")).toBeDefined();
    expect(ranker(kitchen).terms.number("sail")).toBeUndefined();
  });
});
