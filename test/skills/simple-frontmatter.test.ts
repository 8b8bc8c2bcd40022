import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractFrontmatter, parseFrontmatter } from "../../src/skills/skill-md/skill-md.js";
import { parseSimpleFrontmatter } from "../../src/skills/skill-md/simple-frontmatter.js";
import { CORPORA, readManifest } from "../helpers/corpus.js";

/**
 * What the yaml path makes of a frontmatter, when it is a clean read (no error, no warning): the
 * fast path may only answer where this is defined, and must then give the same data.
 */
function viaYaml(yaml: string): { data: unknown } | undefined {
  try {
    const parsed = parseFrontmatter(yaml);
    if ("code" in parsed || parsed.warnings.length > 0) return undefined;
    return { data: parsed.data };
  } catch {
    return undefined;
  }
}

/** Fails unless the fast path declines `yaml` or gives exactly what yaml gives. */
function expectAgreement(yaml: string): Record<string, unknown> | undefined {
  const simple = parseSimpleFrontmatter(yaml);
  if (simple === undefined) return undefined;
  const reference = viaYaml(yaml);
  expect(reference, `yaml does not read this cleanly, but the fast path answered:\n${yaml}`).toBeDefined();
  // toStrictEqual also compares prototypes: both must be null-prototype objects.
  expect(simple).toStrictEqual(reference!.data);
  return simple;
}

describe("the fast path for simple frontmatter", () => {
  it.each([
    ["plain values", 'name: my-skill\ndescription: Does things, well. Really (yes) - it\'s "fine"\n'],
    [
      "a plain value over several lines",
      "description: Starts here\n  and goes on\n\n  after a blank line\n    deeper still\nname: x\n",
    ],
    [
      "double-quoted values with common escapes",
      'description: "Say \\"hi\\"\\n\\tthen \\\\ and \\/ # not a comment"\n',
    ],
    ["single-quoted values", "description: 'It''s: a # value'\nname: ''\n"],
    ["a literal block", "description: |\n  first line\n    indented more\n\n  after a blank\n\n\nname: x\n"],
    ["a stripped literal block", "description: |-\n  one\n  two\n"],
    ["a folded block", "description: >\n  one\n  two\n\n  three\n\n\n  four\nname: x\n"],
    ["a stripped folded block with trailing spaces on its header", "description: >-   \n  one\n  two\n"],
    [
      "numbers, booleans and nulls (YAML 1.2 core)",
      "a: 1.0\nb: 0x1F\nc: 0o17\nd: 1e3\ne: .inf\nf: .NaN\ng: +7\nh: ~\ni:\nj: Null\nk: TRUE\nl: false\nm: 1.2.3\nn: 007\n",
    ],
    ["YAML 1.1 booleans, which stay strings", "a: yes\nb: no\nc: on\nd: off\ne: y\n"],
    [
      "nested mappings",
      'name: x\nmetadata:\n  author: someone\n  version: "1.0"\n  deeper:\n    level: 3\nlicense: MIT\n',
    ],
    ["lists at and below their key", "tags:\n- one\n- 'two'\n- 3\nallowed-tools:\n  - Read\n  - \"Write\"\nname: x\n"],
    ["case-variant and non-spec keys", "Name: x\nDescription: y\nallowed_tools: a\nmeta.data: b\n"],
    ["non-Latin text and emoji", "description: 表を抽出する — Ünïcödé 😀\n"],
    [
      "no-break and ideographic spaces, which YAML does not trim",
      "description: \u00a0padded\u3000\nname: x\u00a0\nlist:\n  - \u00a0a\u00a0\n",
    ],
    ["a plain value continued after 60,000 blank lines", `description: one\n${"\n".repeat(60_000)}  two\n`],
    ["flow lists of scalars", "tags: [a, b c, 'd', \"f\", 1, true, ~]\nempty: [ ]\nspaced: [ x ,y ]\n"],
    [
      "lists of mappings",
      "people:\n  - name: A\n    org: B, C / @d\n    tags: [x]\n  -   name: E\n      role:\n        lead: yes\nrest: 1\n",
    ],
  ])("reads %s as yaml does", (_label, yaml) => {
    expect(expectAgreement(yaml)).toBeDefined();
  });

  it.each([
    ["a comment line", "# comment\nname: x\n"],
    ["a trailing comment", "name: x # comment\n"],
    ["a tab", "name:\tx\n"],
    ["a flow list over two lines", "tags: [a,\n  b]\n"],
    ["a flow list with a trailing comma", "tags: [a, b,]\n"],
    ["a flow list with a comma inside quotes", "tags: ['a, b']\n"],
    ["a flow list holding a pair", "tags: [a: b]\n"],
    ["a flow list holding a list", "tags: [a, [b]]\n"],
    ["a flow list with a comment", "tags: [a] # c\n"],
    ["a list item mapping whose next key is out of line", "items:\n  - a: 1\n   b: 2\n"],
    ["a flow mapping", "metadata: {a: 1}\n"],
    ["an anchor and an alias", "a: &x 1\nb: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["keep chomping", "description: |+\n  one\n\n"],
    ["an indentation indicator", "description: |2\n   one\n"],
    ["a folded block with a more-indented line", "description: >\n  one\n    two\n"],
    ["a block with leading blank lines", "description: |\n\n  one\n"],
    ["a \\u escape", 'description: "\\u00e9"\n'],
    ["a double-quoted value over two lines", 'description: "one\n  two"\n'],
    ['a value holding ": " (repaired, with a warning, by the yaml path)', "description: Use when: the user asks\n"],
    ["a duplicate key (a warning)", "name: a\nname: b\n"],
    ["a key that could reach a prototype", "__proto__: x\nname: y\n"],
    ["a key the core schema resolves to a boolean", "true: x\n"],
    ["a value starting with an indicator", "a: -1\n"],
    ["a document that is not a mapping", "just text\n"],
    ["an empty frontmatter", ""],
    ["a text without its final line break", "name: x"],
  ])("leaves %s to yaml", (_label, yaml) => {
    expect(parseSimpleFrontmatter(yaml)).toBeUndefined();
  });

  // Pieces of YAML syntax mixed into ordinary words, so that most cases come close to the subset
  // and the ones that leave it do so by one detail.
  const piece = fc.constantFrom(
    ...[
      "word",
      "Word",
      "x",
      " ",
      " ",
      "-",
      ":",
      ": ",
      "#",
      " #",
      "'",
      "''",
      '"',
      "\\",
      "\\n",
      "\\u",
      "|",
      ">",
      "0",
      "1",
      ".",
      "e",
    ],
    ...[
      "é",
      "表",
      "😀",
      "[",
      "]",
      "{",
      ",",
      "~",
      "!",
      "&",
      "*",
      "%",
      "@",
      "`",
      "\t",
      "\r",
      "null",
      "true",
      "0x1f",
      "-3",
      ".inf",
      "\u00a0",
      "\u3000",
      "\u2028",
      "\x85",
    ],
  );
  const words = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.string({
        unit: fc.constantFrom("word", "Word", " ", "x", "1", ".", "é", "-"),
        minLength: 1,
        maxLength: 6,
      }),
    },
    { weight: 2, arbitrary: fc.string({ unit: piece, maxLength: 6 }) },
  );
  const scalar = fc.oneof(
    { weight: 4, arbitrary: words },
    { weight: 1, arbitrary: words.map((t) => `"${t}"`) },
    { weight: 1, arbitrary: words.map((t) => `'${t}'`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "~",
        "null",
        "True",
        "1.50",
        "0x1f",
        "0o7",
        "+3",
        ".5",
        "1e3",
        ".inf",
        "yes",
        "007",
      ),
    },
  );
  const spaces = (n: number) => " ".repeat(n);
  /** A value and the lines below its key, for a key indented by `at`. */
  const valueAt = (at: number) =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(scalar, fc.array(fc.tuple(fc.constantFrom(0, 1, 2, 3), words), { maxLength: 2 }))
          .map(([v, more]) => ({ inline: v, below: more.map(([d, t]) => (d === 0 ? "" : spaces(at + d) + t)) })),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.constantFrom("|", "|-", ">", ">-", "|+", "|2", "> "),
            fc.constantFrom(1, 2, 4),
            fc.array(fc.tuple(fc.constantFrom(0, 0, 0, 1, 2), words, fc.boolean()), { minLength: 1, maxLength: 4 }),
          )
          .map(([header, step, content]) => ({
            inline: header,
            below: content.map(([extra, t, blank]) => (blank ? spaces(extra) : spaces(at + step + extra) + t)),
          })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(0, 2), fc.array(scalar, { minLength: 1, maxLength: 3 }))
          .map(([d, items]) => ({ inline: "", below: items.map((item) => `${spaces(at + d)}- ${item}`) })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.array(scalar, { maxLength: 3 }), fc.constantFrom(",", ", ", " , ", ",,"), fc.constantFrom("", " "))
          .map(([items, comma, pad]) => ({ inline: `[${pad}${items.join(comma)}${pad}]`, below: [] })),
      },
      {
        weight: 1,
        // A list of mappings: each item `- key: scalar`, then keys at the first key's column or off it.
        arbitrary: fc
          .tuple(
            fc.constantFrom(0, 2),
            fc.constantFrom(" ", "  "),
            fc.array(
              fc.tuple(key, scalar, fc.array(fc.tuple(fc.constantFrom(-1, 0, 0, 1), key, scalar), { maxLength: 2 })),
              { minLength: 1, maxLength: 2 },
            ),
          )
          .map(([d, gap, items]) => ({
            inline: "",
            below: items.flatMap(([k, v, more]) => [
              `${spaces(at + d)}-${gap}${k}: ${v}`,
              ...more.map(([off, k2, v2]) => `${spaces(at + d + 1 + gap.length + off)}${k2}: ${v2}`),
            ]),
          })),
      },
    );
  const key = fc.constantFrom(
    "name",
    "description",
    "license",
    "a",
    "b-c",
    "x_y",
    "Name",
    "k.1",
    "true",
    "__proto__",
    "a",
  );
  const entry = (at: number): fc.Arbitrary<string[]> =>
    fc
      .tuple(key, fc.constantFrom(": ", ":  "), valueAt(at))
      .map(([k, sep, v]) => [`${spaces(at)}${k}${v.inline === "" ? ":" : sep + v.inline}`, ...v.below]);
  const nested = fc
    .tuple(key, fc.array(entry(2), { minLength: 1, maxLength: 3 }))
    .map(([k, entries]) => [`${k}:`, ...entries.flat()]);
  const frontmatter = fc
    .array(fc.oneof({ weight: 4, arbitrary: entry(0) }, { weight: 1, arbitrary: nested }), {
      minLength: 1,
      maxLength: 5,
    })
    .map((entries) => `${entries.flat().join("\n")}\n`);

  it("never answers differently from yaml on generated frontmatter", () => {
    let answered = 0;
    fc.assert(
      fc.property(frontmatter, (yaml) => {
        if (expectAgreement(yaml) !== undefined) answered++;
      }),
      { numRuns: 5_000 },
    );
    // The comparison means something only if the fast path answered a fair share of the cases.
    expect(answered).toBeGreaterThan(250);
  });
});

// The corpora's skills; ANOMALIES.txt lists their unusual forms (block-scalar descriptions,
// case-variant keys, non-string metadata, CRLF, non-Latin scripts).
function skillFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory() || (entry.isSymbolicLink() && !entry.name.includes("."))) return skillFiles(path);
    return entry.name === "SKILL.md" ? [path] : [];
  });
}

describe.each(CORPORA)("the fast path over $label", (corpus) => {
  it.skipIf(!corpus.present)(
    corpus.title("gives what yaml gives for every corpus SKILL.md it reads, and reads nearly all of them"),
    () => {
      const files = skillFiles(corpus.dir);
      let frontmatters = 0;
      let answered = 0;
      for (const file of files) {
        const block = extractFrontmatter(readFileSync(file, "utf8"), {
          maxFrontmatterBytes: 64 * 1024,
          truncated: false,
        });
        if ("code" in block) continue;
        frontmatters++;
        if (expectAgreement(block.yaml) !== undefined) answered++;
      }
      expect(frontmatters).toBeGreaterThan(readManifest(corpus).length * 0.9);
      expect(answered / frontmatters).toBeGreaterThan(0.95);
    },
  );
});
