import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogSkill } from "../../../../src/skills/catalog/catalog-types.js";
import { Bm25Ranker, MAX_QUERY_WORDS } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
import { CORPORA } from "../../../helpers/corpus.js";
import { HOSTILE_QUERIES, REPO_SKILLS, SAMPLE, loadSkills, skill, snapshot } from "./skills.js";

function ranker(skills: readonly CatalogSkill[] = SAMPLE): Bm25Ranker {
  const r = new Bm25Ranker();
  r.build(skills);
  return r;
}

const names = (r: Bm25Ranker, query: string, limit = 5, source?: string) =>
  r.search(query, { limit, source }).map((result) => result.skill.name);

describe("the bm25 ranker", () => {
  it("finds a skill by the words of its name, description and labels, best first", () => {
    const r = ranker();
    expect(names(r, "commit message")[0]).toBe("commit-message-writer");
    expect(names(r, "extract tables from a pdf")[0]).toBe("pdf-tables");
    expect(names(r, "vlookup pivot")[0]).toBe("spreadsheet-formulas");
    expect(names(r, "finance")[0]).toBe("spreadsheet-formulas");
  });

  it("puts a skill first, scored 100, when the query names it, in any case and with spaces for hyphens", () => {
    const r = ranker();
    for (const query of ["pdf-tables", "PDF Tables", "  pdf_tables ", "other:pdf-tables"]) {
      const [top] = r.search(query, { limit: 3 });
      expect(top?.skill.name, query).toBe("pdf-tables");
      expect(top?.score, query).toBe(100);
    }
    expect(r.search("tables pdf", { limit: 1 })[0]!.score).toBeLessThan(100);
  });

  it("scores from 0 to 100, in descending order", () => {
    const r = ranker();
    for (const query of ["kubernetes", "writes fixes messages", "pdf", "tables formulas commits presentation"]) {
      const results = r.search(query, { limit: 10 });
      expect(results.length, query).toBeGreaterThan(0);
      for (const { score } of results) expect(score).toBeGreaterThanOrEqual(0), expect(score).toBeLessThanOrEqual(100);
      const scores = results.map((x) => x.score);
      expect(scores, query).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it("gives a skill that matches every word of the query a higher score than one that matches a few", () => {
    const r = ranker();
    const [first, second] = r.search("kubernetes helm charts containers", { limit: 2 });
    expect(first!.skill.name).toBe("k8s-deployer");
    expect(first!.score).toBeGreaterThanOrEqual(90);
    expect(second?.score ?? 0).toBeLessThan(first!.score);
  });

  it("stems, completes, corrects typos and knows synonyms", () => {
    const r = ranker();
    expect(names(r, "deploying")[0]).toBe("k8s-deployer"); // stemming: deploys, deploying
    expect(names(r, "kubernetse")[0]).toBe("k8s-deployer"); // a typo
    expect(names(r, "postgre")[0]).toBe("postgres-tuning"); // a word cut short
    expect(names(r, "k8s")[0]).toBe("k8s-deployer");
    expect(names(r, "slides")[0]).toBe("slide-deck-builder");
    expect(names(r, "powerpoint")[0]).toBe("slide-deck-builder");
    expect(names(r, "spreadsheet")[0]).toBe("spreadsheet-formulas");
    expect(names(r, "xlsx")[0]).toBe("spreadsheet-formulas"); // a label, and a synonym of spreadsheet
    expect(names(r, "analyse slow queries")[0]).toBe("postgres-tuning"); // British spelling
  });

  it("lets one rare word of a skill's name outweigh several words that many skills share", () => {
    // Everyday words, each in about a third of the skills, each game kit matching five of the
    // query's eight; "gdscript" in one skill, and in its name. Counting matched words instead of
    // their rarity, and no bonus for the name, put the game kits first.
    const everyday = ["design", "player", "movement", "levels", "game", "loop", "scripts", "written"];
    const common = Array.from({ length: 40 }, (_, i) =>
      skill({
        name: `game-kit-${i}`,
        description: `${everyday.filter((_, j) => (i + j) % 3 !== 0).join(" ")} for game studios.`,
      }),
    );
    const filler = Array.from({ length: 40 }, (_, i) =>
      skill({ name: `garden-${i}`, description: `Gardening tip ${i} about soil.` }),
    );
    const r = ranker([
      ...SAMPLE,
      ...common,
      ...filler,
      skill({ name: "gdscript-helper", description: "Helps with Godot's scripting language." }),
    ]);
    expect(names(r, "design the player movement, the levels and the game loop scripts, written in GDScript")[0]).toBe(
      "gdscript-helper",
    );
  });

  it("lets a rare word of a skill's description stand clear of everyday words other skills match", () => {
    // "node" and "app" are in a dozen skills' descriptions, "dockerfile" in one description and in
    // a near-duplicate's body (borrowed text). Without the description's bonus for rare words, the
    // Dockerfile skill scored 1.08 times the next; with it, 1.4 times.
    const body = "A Dockerfile with two stages keeps the image small.";
    const apps = Array.from({ length: 12 }, (_, i) =>
      skill({ name: `app-kit-${i}`, description: `Helps with the node app, part ${i}.` }),
    );
    const filler = Array.from({ length: 40 }, (_, i) =>
      skill({ name: `garden-${i}`, description: `Gardening tip ${i} about soil.` }),
    );
    const r = ranker([
      ...SAMPLE,
      ...apps,
      ...filler,
      skill({ name: "image-builder", description: "Writes a Dockerfile.", excerpt: body }),
      skill({ name: "release-builder", description: "Tags releases of the node app.", excerpt: body }),
    ]);
    const [first, second] = r.search("dockerfile for the node app", { limit: 2 });
    expect(first!.skill.name).toBe("image-builder");
    expect(first!.score).toBeGreaterThanOrEqual(1.25 * second!.score);
  });

  it("finds a skill by the abbreviation of its name or of a name its text spells out", () => {
    const r = ranker([
      ...SAMPLE,
      skill({ name: "google-search-console", description: "Reads indexing reports." }),
      skill({ name: "edge-caching", description: "Configures a Content Delivery Network for static assets." }),
      skill({ name: "slo-alerts", description: "Sets error budgets for each service level objective (SLO)." }),
    ]);
    expect(names(r, "gsc indexing")[0]).toBe("google-search-console");
    expect(names(r, "cdn")[0]).toBe("edge-caching");
    expect(names(r, "slo")[0]).toBe("slo-alerts");
  });

  it("counts a name's initials as the name only where the skill's text uses them", () => {
    const r = ranker([
      ...SAMPLE,
      // Initials nobody uses: a guess, which must not outrank a skill whose text spells the form out.
      skill({ name: "code-reviewer-workflow", description: "Guidelines for reviewing pull requests." }),
      skill({
        name: "clinical-reports",
        description: "Fills in the CRW of each patient visit following the guidelines.",
      }),
      // Initials the text uses: the name's own short form.
      skill({
        name: "exploratory-data-analysis",
        description: "Runs an EDA on a new dataset: distributions, outliers, correlations.",
      }),
      skill({ name: "event-driven-architecture", description: "Designs event buses for a dataset pipeline." }),
    ]);
    expect(names(r, "crw guidelines")[0]).toBe("clinical-reports");
    expect(names(r, "eda dataset")[0]).toBe("exploratory-data-analysis");
  });

  it("reads the headings and the when-to-use section past the start of the body", () => {
    const filler = "Background prose about the tool. ".repeat(40);
    const r = ranker([
      ...SAMPLE,
      skill({
        name: "secret-rotator",
        description: "Keeps credentials fresh.",
        excerpt: `${filler}\n## When to use\n- a leaked webhook signature\n`,
      }),
    ]);
    expect(names(r, "leaked webhook signature")[0]).toBe("secret-rotator");
  });

  it("scores lower when part of the query is a word no skill has", () => {
    const r = ranker();
    const full = r.search("kubernetes deploy", { limit: 1 })[0]!;
    const partly = r.search("kubernetes deploy zorblax", { limit: 1 })[0]!;
    expect(partly.skill.name).toBe(full.skill.name);
    expect(partly.score).toBeLessThan(full.score * 0.8);
  });

  it("counts its matches without ranking them: as many as a search with no limit returns", () => {
    const r = ranker();
    for (const query of ["writes", "kubernetes", "pdf-tables", "zzzz", "tables formulas commits presentation"]) {
      const every = r.search(query, { limit: 1000 }).length;
      expect(r.count(query), query).toBe(every);
      r.search(query, { limit: 1 });
      expect(r.count(query), query).toBe(every); // from the last search
      expect(r.count(query, { source: "other" }), query).toBe(r.search(query, { limit: 1000, source: "other" }).length);
    }
  });

  it("returns nothing for a query of stop words only, or words no skill has", () => {
    const r = ranker();
    expect(r.search("the and of with", { limit: 5 })).toEqual([]);
    expect(r.search("zyxwvut qqqq", { limit: 5 })).toEqual([]);
  });

  it("honours the limit and the source filter", () => {
    const r = ranker();
    expect(r.search("writes", { limit: 0 })).toEqual([]);
    expect(r.search("writes", { limit: 1 })).toHaveLength(1);
    expect(r.search("writes", { limit: 50 }).length).toBeLessThanOrEqual(SAMPLE.length);
    expect(names(r, "tables", 5, "other")).toEqual(["pdf-tables"]);
    expect(names(r, "kubernetes", 5, "other")).toEqual([]);
    expect(names(r, "pdf-tables", 5, "test")).not.toContain("pdf-tables");
    expect(names(r, "kubernetes", 5, "no-such-source")).toEqual([]);
  });

  it("keeps up with additions, removals and updates, ending where a rebuild in the same order would", () => {
    const queries = [
      "kubernetes",
      "tables",
      "commit",
      "presentation deck",
      "excel",
      "postgres",
      "pdf-tables",
      "spreadsheet-formulas",
    ];
    const r = new Bm25Ranker();
    r.build(SAMPLE.slice(0, 3));
    r.add(SAMPLE.slice(3));
    r.remove([SAMPLE[1]!.qualifiedId, "test:not-indexed"]);
    const edited = { ...SAMPLE[0]!, description: "Deploys to Nomad clusters." };
    r.add([edited]); // same qualified id: replaces it
    r.add([SAMPLE[1]!]);
    // Equal scores keep the order skills were added in, so the rebuild adds them in the final order.
    const expected = ranker([SAMPLE[2]!, ...SAMPLE.slice(3), edited, SAMPLE[1]!]);
    expect(snapshot(r, queries)).toEqual(snapshot(expected, queries));
    expect(names(r, "nomad")).toEqual(["k8s-deployer"]);
    expect(names(r, "helm")).toEqual([]);
  });

  it("renumbers its documents once most of them are gone, with the same results", () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      skill({ name: `filler-${i}`, description: `Filler number ${i} about gardening.` }),
    );
    const r = new Bm25Ranker();
    r.build([...SAMPLE, ...many]);
    r.remove(many.map((s) => s.qualifiedId));
    const queries = ["kubernetes", "gardening", "tables pdf"];
    expect(snapshot(r, queries)).toEqual(snapshot(ranker(), queries));
  });

  it("picks the same top results whether it ranks a few or every match", () => {
    const words = ["garden", "soil", "compost", "seeds", "water", "prune", "roses", "tomato", "shade", "frost"];
    const many = Array.from({ length: 2000 }, (_, i) =>
      skill({
        name: `garden-${i}`,
        description: words.filter((_, j) => (i >> j) & 1 || (i * 7 + j) % 5 === 0).join(" "),
      }),
    );
    const r = ranker([...SAMPLE, ...many]);
    for (const query of ["garden compost roses", "tomato frost shade water", "seeds"]) {
      const all = r.search(query, { limit: 10_000 });
      expect(all.length).toBeGreaterThan(200);
      for (const limit of [1, 5, 10, 50])
        expect(r.search(query, { limit }), `${query} ${limit}`).toEqual(all.slice(0, limit));
    }
  });

  it("ranks a catalog holding the same name twice, and removes each by qualified id", () => {
    const a = skill({ name: "pdf", description: "Reads PDF files.", source: "project" });
    const b = skill({ name: "pdf", description: "Fills PDF forms.", source: "user", id: "user:pdf" });
    const r = ranker([a, b]);
    expect(r.search("pdf", { limit: 5 }).map((x) => x.skill.qualifiedId)).toEqual(["project:pdf", "user:pdf"]);
    r.remove(["project:pdf"]);
    expect(r.search("pdf", { limit: 5 }).map((x) => x.skill.qualifiedId)).toEqual(["user:pdf"]);
  });

  it("survives hostile queries", () => {
    const r = ranker();
    for (const query of HOSTILE_QUERIES) {
      const results = r.search(query, { limit: 10 });
      expect(Array.isArray(results), query.slice(0, 30)).toBe(true);
    }
    // A query longer than MAX_QUERY_WORDS distinct words is read up to that many.
    const long = [...Array.from({ length: MAX_QUERY_WORDS }, (_, i) => `unknownword${i}`), "kubernetes"].join(" ");
    expect(names(r, long)).toEqual([]);
    expect(names(r, `kubernetes ${long}`)[0]).toBe("k8s-deployer");
  });

  it("counts the last of the words it reads as it counts the first", () => {
    const r = ranker();
    const others = Array.from({ length: MAX_QUERY_WORDS - 1 }, (_, i) => `unknownword${i}`);
    const first = r.search(["kubernetes", ...others].join(" "), { limit: 3 });
    const last = r.search([...others, "kubernetes"].join(" "), { limit: 3 });
    expect(first.length).toBeGreaterThan(0);
    expect(last).toEqual(first);
    expect(r.count([...others, "kubernetes"].join(" "))).toBe(r.count(["kubernetes", ...others].join(" ")));
  });

  it("indexes Chinese, Japanese and Korean text by character pairs, and accented words without accents", () => {
    const r = ranker([
      ...SAMPLE,
      skill({ name: "cangjie-dev", description: "使用仓颉语言开发应用程序" }),
      skill({ name: "cafe-menu", description: "Writes the menu of a café." }),
    ]);
    expect(names(r, "仓颉语言")[0]).toBe("cangjie-dev");
    expect(names(r, "cafe")[0]).toBe("cafe-menu");
    expect(names(r, "CAFÉ")[0]).toBe("cafe-menu");
  });

  it("ranks the repository's own skills", async () => {
    const r = ranker(await loadSkills(REPO_SKILLS));
    expect(names(r, "release notes")[0]).toBe("changelog-curator");
    expect(names(r, "conventional commits")[0]).toBe("commit-message-writer");
    expect(names(r, "csv headers")[0]).toBe("csv-tools");
  });
});

describe.each(CORPORA)("the bm25 ranker over $label", (corpus) => {
  const title = corpus.title;
  let skills: readonly CatalogSkill[];
  let r: Bm25Ranker;

  beforeAll(async () => {
    if (!corpus.present) return;
    skills = await loadSkills([corpus.dir]);
    r = ranker(skills);
  });

  it.skipIf(!corpus.present)(title("finds every skill by its id, first and scored 100"), () => {
    for (const s of skills) {
      const [top] = r.search(s.id, { limit: 1 });
      expect(top?.skill.qualifiedId, s.id).toBe(s.qualifiedId);
      expect(top?.score).toBe(100);
    }
  });

  it.skipIf(!corpus.present)(
    title("gives the same results when fed one skill at a time, with removals and re-additions"),
    () => {
      const incremental = new Bm25Ranker();
      incremental.build([]);
      for (let i = 0; i < skills.length; i += 50) incremental.add(skills.slice(i, i + 50));
      const removed = skills.filter((_, i) => i % 7 === 0);
      incremental.remove(removed.map((s) => s.qualifiedId));
      incremental.add(removed);
      const queries = [
        "kubernetes deployment",
        "write a commit message",
        "protein structure",
        "seo audit",
        "pdf",
        "react component tests",
      ];
      expect(snapshot(incremental, queries)).toEqual(
        snapshot(ranker([...skills.filter((_, i) => i % 7 !== 0), ...removed]), queries),
      );
    },
  );

  it.skipIf(!corpus.present)(title("survives hostile queries"), () => {
    for (const query of HOSTILE_QUERIES) expect(() => r.search(query, { limit: 50 })).not.toThrow();
  });
});
