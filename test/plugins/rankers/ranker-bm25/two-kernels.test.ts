import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bm25Ranker } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
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

const serve = (root: string) => startSkillServer([root], ["ranker-bm25", "search-skills"]);

async function results(server: SkillServer): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const query of QUERIES) answers.push((await server.call("search_skills", { query })).structuredContent);
  return answers;
}

function ranker(server: SkillServer): Bm25Ranker {
  const ranker = server.kernel.resolve(TOKENS.Ranker);
  if (!(ranker instanceof Bm25Ranker)) throw new Error("expected the bm25 ranker");
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
