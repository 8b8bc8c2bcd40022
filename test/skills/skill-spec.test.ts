import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { validateSkillDocument, type SkillValidation } from "../../src/skills/skill-md/skill-spec.js";
import { type Anomaly, CORPORA, type Corpus, invalidCount, readAnomalies, readManifest } from "../helpers/corpus.js";

function doc(frontmatter: string, body = "# Body\n"): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

const BASE = "name: my-skill\ndescription: Does things. Use when things need doing.";

function check(text: string, directoryName: string | undefined = "my-skill"): SkillValidation {
  return validateSkillDocument(text, directoryName);
}

const fields = (issues: readonly { field: string }[]) => issues.map((issue) => issue.field);

function errorsOn(text: string, field: string, directoryName?: string): string[] {
  const result = check(text, directoryName ?? "my-skill");
  return result.errors.filter((issue) => issue.field === field).map((issue) => issue.message);
}

describe("validateSkillDocument: a valid skill", () => {
  it("accepts the minimal skill with no findings", () => {
    expect(check(doc(BASE))).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it("accepts every spec field", () => {
    const text = doc(
      `${BASE}\nlicense: Apache-2.0\ncompatibility: Needs Python 3.11 and network access\n` +
        `metadata:\n  author: someone\n  version: "1.0"\nallowed-tools: Bash(git:*) Read`,
    );
    expect(check(text)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it.each([
    ["CRLF", "---\r\nname: my-skill\r\ndescription: Windows.\r\n---\r\nbody\r\n"],
    ["a BOM", "\uFEFF---\nname: my-skill\ndescription: BOM.\n---\n"],
    ["a folded block scalar", "---\nname: my-skill\ndescription: >-\n  Folded\n  text.\n---\n"],
    ["a literal block scalar", "---\nname: my-skill\ndescription: |\n  one\n  two\n---\n"],
  ])("accepts %s", (_label, text) => {
    expect(check(text).valid).toBe(true);
  });

  it("does not compare the name with a folder when none is given", () => {
    expect(check(doc(BASE), undefined).valid).toBe(true);
  });
});

describe("name", () => {
  it.each([
    ["missing", "description: x", /^is required$/],
    ["empty", 'name: ""\ndescription: x', /must not be empty/],
    ["null", "name:\ndescription: x", /must be a string, not empty/],
    ["a number", "name: 42\ndescription: x", /must be a string, not a number/],
    ["a list", "name: [a]\ndescription: x", /must be a string, not a list/],
  ])("is an error when %s", (_label, frontmatter, message) => {
    expect(errorsOn(doc(frontmatter), "name")).toEqual([expect.stringMatching(message)]);
  });

  it("names a case variant but does not take it", () => {
    const result = check(doc("Name: my-skill\ndescription: x"));
    expect(result.errors).toEqual([
      { field: "name", message: expect.stringMatching(/required; "Name" does not count/) },
    ]);
    expect(result.warnings).toEqual([{ field: "Name", message: expect.stringContaining(`the spec's is "name"`) }]);
  });

  it("allows 64 characters and refuses 65", () => {
    const ok = "a".repeat(64);
    expect(check(doc(`name: ${ok}\ndescription: x`), ok).valid).toBe(true);
    const long = "a".repeat(65);
    expect(errorsOn(doc(`name: ${long}\ndescription: x`), "name", long)).toEqual([
      expect.stringContaining("65 characters"),
    ]);
  });

  it.each([
    ["uppercase", "My-Skill", /lowercase letters/],
    ["an underscore", "my_skill", /lowercase letters/],
    ["a space", "my skill", /lowercase letters/],
    ["a dot", "my.skill", /lowercase letters/],
    ["non-ASCII letters", "skïll", /lowercase letters/],
    ["a leading hyphen", "-skill", /start or end with a hyphen/],
    ["a trailing hyphen", "skill-", /start or end with a hyphen/],
    ["two hyphens in a row", "my--skill", /two hyphens in a row/],
  ])("refuses %s", (_label, name, message) => {
    expect(errorsOn(doc(`name: "${name}"\ndescription: x`), "name", name)).toEqual([expect.stringMatching(message)]);
  });

  it("must equal its folder's name", () => {
    expect(errorsOn(doc(BASE), "name", "other-folder")).toEqual([
      `"my-skill" must equal its folder's name "other-folder"`,
    ]);
  });

  it("accepts digits and single hyphens", () => {
    expect(check(doc("name: pdf-2-docx\ndescription: x"), "pdf-2-docx").valid).toBe(true);
  });
});

describe("description", () => {
  it.each([
    ["missing", "name: my-skill", /^is required$/],
    ["empty", 'name: my-skill\ndescription: ""', /must not be empty/],
    ["blank", 'name: my-skill\ndescription: "   "', /must not be empty/],
    ["a mapping", "name: my-skill\ndescription:\n  a: b", /must be a string, not a mapping/],
  ])("is an error when %s", (_label, frontmatter, message) => {
    expect(errorsOn(doc(frontmatter), "description")).toEqual([expect.stringMatching(message)]);
  });

  it("allows 1024 characters and refuses 1025", () => {
    expect(check(doc(`name: my-skill\ndescription: ${"d".repeat(1024)}`)).valid).toBe(true);
    expect(errorsOn(doc(`name: my-skill\ndescription: ${"d".repeat(1025)}`), "description")).toEqual([
      "is 1025 characters; the spec allows at most 1024",
    ]);
  });

  it("counts characters, not bytes or UTF-16 units", () => {
    expect(check(doc(`name: my-skill\ndescription: ${"😀".repeat(1024)}`)).valid).toBe(true);
  });

  it("does not count the newline a block scalar ends with", () => {
    expect(check(doc(`name: my-skill\ndescription: |\n  ${"d".repeat(1024)}`)).valid).toBe(true);
  });
});

describe("optional spec fields", () => {
  it("takes any license text: the spec asks for a name or a file, not an SPDX id", () => {
    expect(check(doc(`${BASE}\nlicense: MIT License`)).valid).toBe(true);
    expect(check(doc(`${BASE}\nlicense: Complete terms in LICENSE.txt`)).valid).toBe(true);
    expect(errorsOn(doc(`${BASE}\nlicense: 3`), "license")).toEqual(["must be a string when present, not a number"]);
  });

  it("limits compatibility to 1-500 characters", () => {
    expect(check(doc(`${BASE}\ncompatibility: ${"c".repeat(500)}`)).valid).toBe(true);
    expect(errorsOn(doc(`${BASE}\ncompatibility: ${"c".repeat(501)}`), "compatibility")).toEqual([
      "is 501 characters; the spec allows at most 500",
    ]);
    expect(errorsOn(doc(`${BASE}\ncompatibility: ""`), "compatibility")).toEqual(["must not be empty when present"]);
    expect(errorsOn(doc(`${BASE}\ncompatibility: [a]`), "compatibility")).toEqual([
      "must be a string when present, not a list",
    ]);
  });

  it("wants allowed-tools as one string, and tolerates a list of strings with a warning", () => {
    expect(check(doc(`${BASE}\nallowed-tools: Read Write`)).valid).toBe(true);
    const list = check(doc(`${BASE}\nallowed-tools: [Read, Write]`));
    expect(list.valid).toBe(true);
    expect(fields(list.warnings)).toEqual(["allowed-tools"]);
    expect(errorsOn(doc(`${BASE}\nallowed-tools: 5`), "allowed-tools")).toEqual([
      "must be a space-separated string, not a number",
    ]);
  });
});

describe("metadata", () => {
  it("accepts a map of strings, quoted dates and numbers included", () => {
    const text = doc(`${BASE}\nmetadata:\n  author: me\n  updated: "2026-03-17"\n  count: '3'\n  version: 1.0.0`);
    expect(check(text)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it.each([
    ["a number", "count: 28", /"count" is a number: quote it/],
    ["a boolean", "beta: true", /"beta" is a boolean: quote it/],
    ["a list", "tags: [a, b]", /"tags" is a list/],
    ["a mapping", "owner:\n    name: x", /"owner" is a mapping/],
    ["empty", "note:", /"note" is empty/],
    [
      "a date to YAML 1.1 parsers",
      "updated: 2026-03-17",
      /"updated" is a date to YAML 1\.1 parsers \(2026-03-17 unquoted\): quote it/,
    ],
    ["a boolean to YAML 1.1 parsers", "stable: yes", /"stable" is a boolean to YAML 1\.1 parsers/],
    ["a number to YAML 1.1 parsers", "build: 1_000", /"build" is a number to YAML 1\.1 parsers/],
  ])("is an error when a value is %s", (_label, entry, message) => {
    expect(errorsOn(doc(`${BASE}\nmetadata:\n  ${entry}`), "metadata")).toEqual([expect.stringMatching(message)]);
  });

  it("is an error when a key is not a string", () => {
    expect(errorsOn(doc(`${BASE}\nmetadata:\n  7: seven`), "metadata")).toEqual([
      expect.stringMatching(/key 7 is a number: quote it; keys must be strings/),
    ]);
  });

  it("checks the values of a metadata given by an alias", () => {
    expect(errorsOn(doc(`${BASE}\nshared: &m\n  n: 1\nmetadata: *m`), "metadata")).toEqual([
      `"n" is a number; the spec wants string values`,
    ]);
  });

  it.each([
    ["a list", "metadata: [a, b]", "must be a map of strings to strings, not a list"],
    ["a string", "metadata: author=me", "must be a map of strings to strings, not a string"],
    ["empty", "metadata:", "must be a map of strings to strings, not empty"],
  ])("is an error when metadata is %s", (_label, entry, message) => {
    expect(errorsOn(doc(`${BASE}\n${entry}`), "metadata")).toEqual([message]);
  });
});

describe("fields outside the spec", () => {
  it("warns once per unknown field, naming it", () => {
    const result = check(doc(`${BASE}\nversion: 1.0.0\ntriggers: [pdf]\ntags: [a]`));
    expect(result.valid).toBe(true);
    expect(fields(result.warnings)).toEqual(["version", "triggers", "tags"]);
    expect(result.warnings[0]!.message).toMatch(/not a spec field/);
  });

  it("warns about a case variant of a spec field even when the field is there too", () => {
    const result = check(doc(`${BASE}\nDescription: again`));
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([{ field: "Description", message: expect.stringContaining(`"description"`) }]);
  });
});

describe("body", () => {
  const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

  it("warns past 500 lines, and not at 500", () => {
    expect(check(doc(BASE, `${lines(500)}\n`)).warnings).toEqual([]);
    expect(check(doc(BASE, `${lines(501)}\n`)).warnings).toEqual([
      { field: "body", message: "is 501 lines; the spec recommends under 500: move detail into references/" },
    ]);
  });

  it("does not count blank lines around the body", () => {
    expect(check(doc(BASE, `\n\n${lines(500)}\n\n\n`)).warnings).toEqual([]);
  });

  it("says so when only the head of the file was checked", () => {
    const result = validateSkillDocument(doc(BASE, lines(10)), "my-skill", { truncated: true });
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([
      { field: "body", message: expect.stringMatching(/only the first \d+ characters/) },
    ]);
    const long = validateSkillDocument(doc(BASE, lines(600)), "my-skill", { truncated: true });
    expect(long.warnings).toEqual([{ field: "body", message: expect.stringMatching(/^is 600 lines or more/) }]);
  });
});

describe("frontmatter", () => {
  it.each([
    ["no frontmatter", "# Just markdown\n", /does not start with a ---/],
    ["an empty file", "", /does not start with a ---/],
    ["a frontmatter further down", "# Title\n---\nname: my-skill\n---\n", /does not start with a ---/],
    ["an unclosed frontmatter", "---\nname: my-skill\ndescription: x\n", /no closing --- line/],
    ["YAML that does not parse", "---\nname: [unclosed\ndescription: x\n---\n", /^not valid YAML: line \d+/],
    [
      "a value holding ': '",
      "---\nname: my-skill\ndescription: Use when: things\n---\n",
      /^not valid YAML: .*quote the value$/,
    ],
    [
      "a duplicate key",
      "---\nname: my-skill\nname: my-skill\ndescription: x\n---\n",
      /"name" appears more than once.*strict YAML/,
    ],
    ["a list", "---\n- a\n- b\n---\n", /must be a mapping of fields, not a list/],
    ["a scalar", "---\njust text\n---\n", /must be a mapping of fields, not a string/],
  ])("is an error for %s", (_label, text, message) => {
    const result = check(text);
    expect(result.valid).toBe(false);
    expect(result.errors).toContainEqual({ field: "frontmatter", message: expect.stringMatching(message) });
  });

  it("reports an empty frontmatter as its missing fields", () => {
    expect(fields(check("---\n---\nbody\n").errors)).toEqual(["name", "description"]);
  });

  it("refuses a frontmatter over the size cap before parsing it", () => {
    const text = doc(`${BASE}\nnote: ${"x".repeat(2_000)}`);
    expect(validateSkillDocument(text, "my-skill", { maxFrontmatterBytes: 1_000 }).errors).toEqual([
      { field: "frontmatter", message: expect.stringMatching(/over the limit of 1000/) },
    ]);
  });

  it("says an unclosed frontmatter in a truncated read was cut, not unclosed", () => {
    const result = validateSkillDocument("---\nname: my-skill\ndescription: x\n", "my-skill", { truncated: true });
    expect(result.errors).toEqual([
      { field: "frontmatter", message: expect.stringMatching(/not closed within the first \d+ characters read/) },
    ]);
  });

  it.each([
    [
      "an alias bomb",
      `---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [${"*a, ".repeat(9)}*a]\nc: &c [${"*b, ".repeat(9)}*b]\nd: [${"*c, ".repeat(9)}*c]\n---\n`,
    ],
    ["a recursive alias", "---\nname: &a [*a]\ndescription: x\n---\n"],
    ["an unknown anchor", "---\nname: *nowhere\ndescription: x\n---\n"],
  ])("never throws on %s", (_label, text) => {
    const result = check(text);
    expect(result.valid).toBe(false);
    expect(fields(result.errors)).toContain("frontmatter");
  });

  it("drops keys that reach prototypes, with a warning", () => {
    const result = check(doc(`${BASE}\n__proto__: x`));
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([{ field: "frontmatter", message: expect.stringContaining("__proto__") }]);
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// The corpora's skills (test/helpers/corpus.ts), against the anomalies their ANOMALIES.txt lists
// ---------------------------------------------------------------------------------------------

function validateCorpusSkill(corpus: Corpus, repo: string, path: string): SkillValidation {
  const dir = join(corpus.dir, repo.replace("/", "__"), ...path.split("/"));
  const file = existsSync(join(dir, "SKILL.md")) ? join(dir, "SKILL.md") : join(dir, "skill.md");
  return validateSkillDocument(readFileSync(file, "utf8"), posix.basename(path));
}

/** The errors each kind implies; every other kind leaves a skill valid. */
const ERROR_FIELDS: Readonly<Record<string, readonly string[]>> = {
  "metadata-has-non-string-values": ["metadata"],
  "name-dir-mismatch": ["name"],
  "description>1024-chars": ["description"],
  // The one skill without a frontmatter is also the one missing name and description.
  "no-frontmatter": ["frontmatter"],
  "missing-name": ["name", "frontmatter"],
  "missing-description": ["description", "frontmatter"],
};

/** Up to 5 per kind, spread over the list; all of a kind with 5 or fewer. */
function sample<T>(items: readonly T[]): T[] {
  if (items.length <= 5) return [...items];
  return [0, 1, 2, 3, 4].map((i) => items[Math.round((i * (items.length - 1)) / 4)]!);
}

const inParens = (detail: string) => /\((.*)\)/.exec(detail)?.[1] ?? "";

const EXPECT_BY_KIND: Readonly<Record<string, (result: SkillValidation, anomaly: Anomaly) => void>> = {
  // Not a spec rule: the spec asks for "a license name or a reference to a bundled license file".
  "license-field-not-SPDX-id": (result) => expect(fields(result.errors)).not.toContain("license"),
  "metadata-has-non-string-values": (result, { detail }) => {
    for (const key of inParens(detail).split(", ")) {
      expect(result.errors).toContainEqual({ field: "metadata", message: expect.stringContaining(`"${key}"`) });
    }
  },
  "body>500-lines": (result, { detail }) =>
    expect(result.warnings).toContainEqual({
      field: "body",
      message: expect.stringMatching(new RegExp(`^is ${inParens(detail)} lines`)),
    }),
  "non-spec-fields": (result, { detail }) => {
    for (const field of detail.replace(/^non-spec-fields: /, "").split(", "))
      expect(fields(result.warnings)).toContain(field);
  },
  "description-block-scalar": (result) => expect(fields(result.errors)).not.toContain("description"),
  "name-dir-mismatch": (result) =>
    expect(result.errors).toContainEqual({ field: "name", message: expect.stringContaining("must equal its folder") }),
  "description>1024-chars": (result, { detail }) =>
    expect(result.errors).toContainEqual({
      field: "description",
      message: expect.stringContaining(`is ${inParens(detail)} characters`),
    }),
  "no-frontmatter": (result) => expect(fields(result.errors)).toEqual(["frontmatter"]),
  "missing-name": (result) => expect(result.valid).toBe(false),
  "missing-description": (result) => expect(result.valid).toBe(false),
  "case-variant-keys": (result) => expect(result.warnings.length + result.errors.length).toBeGreaterThan(0),
  "crlf-line-endings": (result) => expect(result.valid).toBe(true),
};

describe.each(CORPORA)("the corpus anomalies ($label/ANOMALIES.txt)", (corpus) => {
  const anomalies = corpus.present ? readAnomalies(corpus) : [];
  const kindsOf = new Map<string, Set<string>>();
  const byKind = new Map<string, Anomaly[]>();
  for (const anomaly of anomalies) {
    const key = `${anomaly.repo}\t${anomaly.path}`;
    kindsOf.set(key, (kindsOf.get(key) ?? new Set()).add(anomaly.kind));
    byKind.set(anomaly.kind, [...(byKind.get(anomaly.kind) ?? []), anomaly]);
  }

  it.skipIf(!corpus.present)(corpus.title("reads every skill its summary counts, and knows every kind"), () => {
    const summary = readFileSync(join(corpus.dir, "ANOMALIES.txt"), "utf8").split("== SUMMARY")[1]!.split("\n==")[0]!;
    const counted = [...summary.matchAll(/^\s+(\d+)\s+(\S+)$/gm)].map(([, count, kind]) => [kind, Number(count)]);
    expect(counted.length).toBeGreaterThan(10);
    expect(new Map([...byKind].map(([kind, list]) => [kind, list.length]))).toEqual(
      new Map(counted as [string, number][]),
    );
    for (const kind of byKind.keys()) {
      const known = kind in EXPECT_BY_KIND || /^(duplicate-name-|nested-inside-skill|description-)/.test(kind);
      expect(known, `a kind this test does not handle: ${kind}`).toBe(true);
    }
  });

  it.each([...byKind.keys()])("%s: a sample agrees with the rules", (kind) => {
    for (const anomaly of sample(byKind.get(kind)!)) {
      const result = validateCorpusSkill(corpus, anomaly.repo, anomaly.path);
      const where = `${anomaly.repo} ${anomaly.path}: ${JSON.stringify(result)}`;
      EXPECT_BY_KIND[kind]?.(result, anomaly);
      // Whatever its kinds, a skill has errors exactly on the fields its error kinds name.
      const expected = new Set(
        [...kindsOf.get(`${anomaly.repo}\t${anomaly.path}`)!].flatMap((k) => ERROR_FIELDS[k] ?? []),
      );
      expect(result.valid, where).toBe(expected.size === 0);
      for (const field of fields(result.errors)) expect(expected.has(field), where).toBe(true);
    }
  });

  it.skipIf(!corpus.present)(
    corpus.title("finds every skill of the corpus valid unless the list names an error for it"),
    () => {
      const rows = readManifest(corpus);
      const invalid: string[] = [];
      const unexpected: string[] = [];
      for (const { repo, path } of rows) {
        const result = validateCorpusSkill(corpus, repo, path);
        const expectsErrors = [...(kindsOf.get(`${repo}\t${path}`) ?? [])].some((kind) => kind in ERROR_FIELDS);
        if (!result.valid) invalid.push(path);
        if (result.valid === expectsErrors) unexpected.push(`${repo} ${path}: ${JSON.stringify(result.errors)}`);
      }
      expect(unexpected).toEqual([]);
      expect(invalid).toHaveLength(invalidCount(corpus));
    },
  );
});
