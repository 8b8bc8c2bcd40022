import { describe, expect, it } from "vitest";
import { WholeCatalog } from "../../src/skills/catalog/catalog.js";
import { createLogger } from "../../src/kernel/logger.js";
import { manualClock } from "../helpers/clock.js";
import type { CatalogSource, SourceSkill } from "../../src/skills/types.js";

/** What a one-shot command warns about: the sources its answer went out without. */
function catalogOf(hanging: boolean, time = manualClock()) {
  const noFiles = () => Promise.reject(new Error("not in this test"));
  const skills: SourceSkill[] = [
    { name: "local", description: "local", path: "local", frontmatter: {}, excerpt: "", rank: 0 },
  ];
  const source = (name: string, load: CatalogSource["load"]): CatalogSource => ({
    name,
    description: name,
    load,
    readDocument: noFiles,
    listFiles: noFiles,
    readFile: noFiles,
  });
  const catalog = new WholeCatalog(createLogger("silent"), time.clock);
  catalog.addSource(source("folder", async () => ({ skills, diagnostics: [] })));
  catalog.addSource(
    source("catalog", hanging ? () => new Promise(() => undefined) : async () => ({ skills: [], diagnostics: [] })),
  );
  return catalog;
}

describe("the sources an answer went out without", () => {
  it("names a source still loading when ready() stopped waiting, though a plugin asked for ready() before the bound was set", async () => {
    const time = manualClock();
    const catalog = catalogOf(true, time);
    // As the search plugin does at start, before the CLI sets the bound: that first call sets its start.
    void catalog.ready();
    catalog.answerWithin(10, { waitForOneSource: true });
    const answered = catalog.ready();
    await time.tickAsync(9);
    expect(catalog.answeredWithout()).toEqual([]);
    await time.tickAsync(1);
    await answered;
    expect(catalog.list().map((skill) => skill.name)).toEqual(["local"]);
    expect(catalog.answeredWithout()).toEqual(["catalog"]);
  });

  it("names none when every source loaded, or when nothing waited on the catalog", async () => {
    const loaded = catalogOf(false);
    loaded.answerWithin(10, { waitForOneSource: true });
    // Every source loads before the bound: no time needs to pass.
    await loaded.ready();
    expect(loaded.answeredWithout()).toEqual([]);
    const unasked = catalogOf(true);
    unasked.answerWithin(10, { waitForOneSource: true });
    expect(unasked.answeredWithout()).toEqual([]);
  });
});
