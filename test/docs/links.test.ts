import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every relative link in the docs (README.md, docs/, the READMEs beside the code) reaches a file
 * that exists, and a `#fragment` of a Markdown file a heading it has, so moving a section cannot
 * leave another page pointing at where it was.
 */
const ROOT = join(import.meta.dirname, "../..");
const markdown = (dir: string) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => `${dir}/${name}`);
const DOCS = ["README.md", ...markdown("docs"), ...markdown("src")];

/**
 * GitHub's anchors: each heading lower case, punctuation but hyphens dropped, spaces made hyphens,
 * repeats numbered; and each `<a id>`.
 */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"><\/a>/g)) found.add(id!);
  return found;
}

/** Relative links of one doc, outside code blocks and code spans: [text](target). */
function links(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe("links in the docs", () => {
  it.each(DOCS)("%s links only to files and headings that exist", (doc) => {
    const text = readFileSync(join(ROOT, doc), "utf8");
    const broken = links(text).filter((target) => {
      const [path, fragment] = target.split("#") as [string, string | undefined];
      const file = path === "" ? join(ROOT, doc) : join(ROOT, dirname(doc), decodeURIComponent(path));
      if (!existsSync(file)) return true;
      if (fragment === undefined || !file.endsWith(".md")) return false;
      return !anchors(readFileSync(file, "utf8")).has(decodeURIComponent(fragment));
    });
    expect(broken.map((target) => `${relative(ROOT, join(ROOT, doc))} -> ${target}`)).toEqual([]);
  });
});
