import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import type { Identity } from "../../../../src/kernel/types.js";
import { createHttpHandler } from "../../../../src/plugins/transports/http/index.js";
import { TOKENS } from "../../../../src/tokens.js";
import { fetchIn } from "../../../helpers/embedded-http.js";

/**
 * A caller who may not see a source is ranked as a server without that source would rank it:
 * word rarity and totals over what it may see. The hidden `team` root is full of payroll skills,
 * which made "payroll" a common word and the public `pub-notes` a weak match for outsiders.
 */
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}\n`;
const outsider: Identity = { subject: "bob", scopes: [], claims: { groups: ["sales"] } };
const member: Identity = { subject: "ada", scopes: [], claims: { groups: ["payroll"] } };
const QUERIES = ["payroll", "payroll notes", "meeting notes", "quarterly report"];

let dir: string;
const kernels: SkillsKernel[] = [];

async function kernel(roots: unknown[], ranker?: string): Promise<SkillsKernel> {
  const plugins: PluginEntry[] = [["fs", { roots }], "search-skills", "rest-api", ...(ranker ? [ranker] : [])];
  const booted = await createKernel({ config: { plugins }, baseDir: dir });
  kernels.push(booted);
  return booted;
}

async function search(booted: SkillsKernel, query: string, identity?: Identity) {
  const result = await booted.callTool("search_skills", { query, limit: 10 }, { identity });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sk-hidden-search-"));
  for (let i = 0; i < 40; i++) {
    await mkdir(join(dir, "team", `payroll-${i}`), { recursive: true });
    await writeFile(
      join(dir, "team", `payroll-${i}`, "SKILL.md"),
      skill(`payroll-${i}`, `Payroll run ${i} - payroll checks, payroll exports and payroll notes.`),
    );
  }
  for (const [name, description] of [
    ["pub-notes", "Payroll notes for everyone - how the monthly payroll is announced."],
    ["meeting-notes", "Take meeting notes and share them."],
    ["quarterly-report", "Write the quarterly report."],
  ] as const) {
    await mkdir(join(dir, "public", name), { recursive: true });
    await writeFile(join(dir, "public", name, "SKILL.md"), skill(name, description));
  }
});

afterAll(async () => {
  for (const booted of kernels.splice(0)) await booted.close();
  await rm(dir, { recursive: true, force: true });
});

describe.each([["ranker-bm25"], ["ranker-fuse"]])("search_skills with %s and a hidden source", (ranker) => {
  it("answers an outsider exactly as a server without the hidden source, and a member from the whole catalog", async () => {
    const hidden = { path: "team", source: "team", visibleTo: { claims: { groups: ["payroll"] } } };
    const withHidden = await kernel([hidden, { path: "public", source: "public" }], ranker);
    const without = await kernel([{ path: "public", source: "public" }], ranker);
    for (const query of QUERIES) {
      const expected = await search(without, query);
      expect(await search(withHidden, query, outsider), query).toEqual(expected);
      expect(await search(withHidden, query), query).toEqual(expected);
    }
    const pub = (await search(withHidden, "payroll", outsider)) as {
      results: { id: string; score: number; match_quality: string }[];
      total: number;
    };
    expect(pub.results[0]).toMatchObject({
      id: "pub-notes",
      ...(ranker === "ranker-bm25" && { match_quality: "strong" }),
    });
    expect(pub.total).toBe(1);
    const whole = (await search(withHidden, "payroll", member)) as { total: number };
    expect(whole.total).toBe(41);
  });
});

describe("an outsider's index", () => {
  it("follows a change to the sources it may see", async () => {
    const booted = await kernel([
      { path: "team", source: "team", visibleTo: { scopes: ["skills:payroll"] } },
      { path: "public", source: "public" },
    ]);
    expect(await search(booted, "onboarding", outsider)).toMatchObject({ total: 0 });
    await mkdir(join(dir, "public", "onboarding"), { recursive: true });
    try {
      await writeFile(join(dir, "public", "onboarding", "SKILL.md"), skill("onboarding", "Onboarding for new hires."));
      await booted.resolve(TOKENS.WholeCatalog).refresh();
      expect(await search(booted, "onboarding", outsider)).toMatchObject({ total: 1, results: [{ id: "onboarding" }] });
    } finally {
      await rm(join(dir, "public", "onboarding"), { recursive: true, force: true });
    }
  });
});

describe("/v1/skills/search with a hidden source", () => {
  it("answers a caller with no identity as a server without the hidden source", async () => {
    const withHidden = await kernel([
      { path: "team", source: "team", visibleTo: { scopes: ["skills:payroll"] } },
      { path: "public", source: "public" },
    ]);
    const without = await kernel([{ path: "public", source: "public" }]);
    const get = async (booted: SkillsKernel) => {
      const handler = createHttpHandler(booted);
      try {
        const response = await fetchIn(handler, "/v1/skills/search?q=payroll&limit=10");
        expect(response.status).toBe(200);
        return response.json();
      } finally {
        await handler.close();
      }
    };
    expect(await get(withHidden)).toEqual(await get(without));
  });
});
