import { describe, expect, it } from "vitest";
import { parseSkillMd, type SkillMdResult } from "../../src/skills/skill-md/skill-md.js";

const LIMITS = { maxFrontmatterBytes: 64 * 1024, truncated: false };

function parse(text: string, folderName = "my-skill", options: Partial<typeof LIMITS> = {}): SkillMdResult {
  return parseSkillMd(text, { folderName, ...LIMITS, ...options });
}

function loaded(text: string, folderName = "my-skill") {
  const result = parse(text, folderName);
  if (!result.ok) throw new Error(`expected the skill to load, got ${result.error.code}: ${result.error.message}`);
  return result.skill;
}

function skippedCode(text: string, options: Partial<typeof LIMITS> = {}): string {
  const result = parse(text, "my-skill", options);
  if (result.ok) throw new Error("expected the skill to be skipped");
  return result.error.code;
}

const codes = (skill: { warnings: readonly { code: string }[] }) => skill.warnings.map((warning) => warning.code);

describe("frontmatter boundaries", () => {
  it("reads a plain frontmatter and ignores the body", () => {
    const skill = loaded("---\nname: my-skill\ndescription: Does things.\n---\n# Body\n\n---\nnot: yaml\n");
    expect(skill).toMatchObject({ name: "my-skill", description: "Does things.", warnings: [] });
    expect(Object.keys(skill.frontmatter)).toEqual(["name", "description"]);
  });

  it.each([
    ["CRLF", "---\r\nname: my-skill\r\ndescription: Windows.\r\n---\r\nbody\r\n"],
    ["CR only", "---\rname: my-skill\rdescription: Old Mac.\r---\rbody\r"],
    ["a BOM", "\uFEFF---\nname: my-skill\ndescription: BOM.\n---\n"],
    ["a BOM and CRLF", "\uFEFF---\r\nname: my-skill\r\ndescription: BOM.\r\n---\r\n"],
    ["a ... end marker", "---\nname: my-skill\ndescription: Dots.\n...\n"],
    ["trailing spaces on the markers", "--- \nname: my-skill\ndescription: Spaces.\n---\t\n"],
  ])("accepts %s", (_label, text) => {
    const skill = loaded(text);
    expect(skill.name).toBe("my-skill");
    expect(skill.description).not.toMatch(/\r/);
  });

  it("keeps CRLF block scalars free of carriage returns", () => {
    expect(loaded("---\r\nname: my-skill\r\ndescription: |\r\n  one\r\n  two\r\n---\r\n").description).toBe("one\ntwo");
  });

  it.each([
    ["no frontmatter at all", "# Just markdown\n"],
    ["a frontmatter that is not on the first line", "# Title\n\n---\nname: my-skill\ndescription: Late.\n---\n"],
    ["an empty file", ""],
  ])("skips %s as no-frontmatter", (_label, text) => {
    expect(skippedCode(text)).toBe("no-frontmatter");
  });

  it("skips an unclosed frontmatter in a file read whole", () => {
    expect(skippedCode("---\nname: my-skill\ndescription: Never closed.\n# Body\n")).toBe("unclosed-frontmatter");
    expect(skippedCode("---")).toBe("unclosed-frontmatter");
  });

  it("skips a frontmatter not closed within a truncated head as too large", () => {
    expect(skippedCode("---\nname: my-skill\ndescription: Cut.\nkey: value\n", { truncated: true })).toBe(
      "frontmatter-too-large",
    );
  });

  it("refuses a 5 MB frontmatter of many keys before parsing it", () => {
    const keys = Array.from({ length: 350_000 }, (_, index) => `key${index}: value`).join("\n");
    const text = `---\nname: my-skill\ndescription: Huge.\n${keys}\n---\n`;
    expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
    const started = performance.now();
    const result = parse(text);
    console.log(`5 MB frontmatter refused in ${(performance.now() - started).toFixed(1)} ms`);
    expect(result).toMatchObject({ ok: false, error: { code: "frontmatter-too-large" } });
  });

  it("measures the frontmatter cap in bytes, not characters", () => {
    const text = `---\nname: my-skill\ndescription: ${"é".repeat(40)}\n---\n`;
    expect(skippedCode(text, { maxFrontmatterBytes: 80 })).toBe("frontmatter-too-large");
    expect(parse(text, "my-skill", { maxFrontmatterBytes: 120 }).ok).toBe(true);
  });
});

describe("YAML safety", () => {
  it("fails fast on an alias bomb", () => {
    const lines = ['a0: &a0 "lol"'];
    for (let level = 1; level <= 12; level++)
      lines.push(
        `a${level}: &a${level} [${Array(10)
          .fill(`*a${level - 1}`)
          .join(",")}]`,
      );
    // Expanded, this is 10^12 strings: finishing at all shows the alias budget stopped it.
    const result = parse(`---\nname: my-skill\ndescription: Boom.\n${lines.join("\n")}\n---\n`);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "yaml-parse", message: expect.stringMatching(/alias/i) },
    });
  });

  it("refuses aliases that stay under yaml's alias budget but expand to a huge tree", () => {
    const wide = `wide: &w [${Array(10_000).fill("1").join(",")}]`;
    const text = `---\nname: my-skill\ndescription: Wide.\n${wide}\ncopies: [${Array(50).fill("*w").join(",")}]\n---\n`;
    const error = { code: "yaml-parse", message: expect.stringMatching(/values once aliases are expanded/) };
    expect(parse(text)).toMatchObject({ ok: false, error });
  });

  it("refuses a recursive alias, which has no plain tree form", () => {
    expect(skippedCode("---\nname: my-skill\ndescription: Loop.\nloop: &a [*a]\n---\n")).toBe("yaml-parse");
  });

  it("refuses an alias to an anchor that does not exist", () => {
    expect(skippedCode("---\nname: my-skill\ndescription: *nowhere\n---\n")).toBe("yaml-parse");
  });

  it("copies shared aliases into separate plain values", () => {
    const skill = loaded("---\nname: my-skill\ndescription: Shared.\nbase: &b { x: 1 }\ncopy: *b\n---\n");
    expect(skill.frontmatter.copy).toEqual({ x: 1 });
    expect(skill.frontmatter.copy).not.toBe(skill.frontmatter.base);
  });

  it("uses YAML 1.2: yes, no and on stay strings", () => {
    const skill = loaded(
      "---\nname: my-skill\ndescription: Core schema.\na: yes\nb: no\nc: on\nd: true\ne: 0o17\n---\n",
    );
    expect(skill.frontmatter).toMatchObject({ a: "yes", b: "no", c: "on", d: true, e: 15 });
  });

  it("keeps merge keys as ordinary keys", () => {
    const skill = loaded(
      "---\nname: my-skill\ndescription: Merge.\nbase: &b { x: 1 }\nchild:\n  <<: *b\n  y: 2\n---\n",
    );
    expect(skill.frontmatter.child).toEqual({ "<<": { x: 1 }, y: 2 });
  });

  it("turns custom and YAML 1.1 tags into plain values with a warning", () => {
    const skill = loaded(
      [
        "---",
        "name: my-skill",
        "description: Tags.",
        "run: !python/object/apply:os.system [ls]",
        "bin: !!binary aGk=",
        "when: !!timestamp 2001-12-14",
        "set: !!set { a, b }",
        "---",
      ].join("\n"),
    );
    expect(skill.frontmatter).toEqual(
      Object.assign(Object.create(null), {
        name: "my-skill",
        description: "Tags.",
        run: ["ls"],
        bin: "aGk=",
        when: "2001-12-14",
        set: { a: null, b: null },
      }),
    );
    const message = expect.stringMatching(/^line 4, column \d+: Unresolved tag.*\(and 3 more\)$/);
    expect(skill.warnings).toEqual([{ code: "yaml-warning", message }]);
  });

  it("reports a YAML error with its line and column in SKILL.md", () => {
    // Line 1 is the opening ---, so the tab on the frontmatter's third line is on line 4.
    const result = parse("---\nname: my-skill\ndescription: Fine.\n\tbad: 1\n---\n");
    const error = { code: "yaml-parse", message: "line 4, column 1: Tabs are not allowed as indentation" };
    expect(result).toMatchObject({ ok: false, error });
  });

  it("warns about duplicate keys and keeps the last value", () => {
    const skill = loaded("---\nname: my-skill\ndescription: First.\ndescription: Second.\n---\n");
    expect(skill.description).toBe("Second.");
    expect(codes(skill)).toEqual(["duplicate-key"]);
  });
});

describe("prototype pollution", () => {
  const hostile = [
    "---",
    "name: my-skill",
    "description: Hostile keys.",
    "__proto__: { polluted: yes }",
    "constructor: { prototype: { polluted: yes } }",
    "prototype: { polluted: yes }",
    "metadata:",
    "  __proto__: { polluted: yes }",
    "  list: [ { constructor: { prototype: { polluted: yes } } } ]",
    "  fine: kept",
    "'__proto__': quoted too",
    "---",
  ].join("\n");

  it("drops keys that reach prototypes, at any depth, and leaves Object.prototype alone", () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
    const skill = loaded(hostile);

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
    expect(Object.keys(skill.frontmatter)).toEqual(["name", "description", "metadata"]);
    const metadata = skill.frontmatter.metadata as Record<string, unknown>;
    expect(Object.keys(metadata)).toEqual(["list", "fine"]);
    expect(metadata.list).toEqual([Object.create(null)]);
    expect(skill.warnings).toEqual([
      { code: "duplicate-key", message: expect.stringContaining("__proto__") },
      {
        code: "unsafe-key",
        message: expect.stringContaining(
          "__proto__, constructor, prototype, metadata.__proto__, metadata.list[0].constructor",
        ),
      },
    ]);
  });

  it("returns null-prototype objects all the way down", () => {
    const skill = loaded("---\nname: my-skill\ndescription: Nested.\na: { b: { c: [ { d: 1 } ] } }\n---\n");
    const a = skill.frontmatter.a as { b: { c: object[] } };
    for (const object of [skill.frontmatter, a, a.b, a.b.c[0]!]) expect(Object.getPrototypeOf(object)).toBeNull();
  });
});

describe("description", () => {
  it.each([
    ["missing", "---\nname: my-skill\n---\n", "missing-description"],
    ["empty", "---\nname: my-skill\ndescription:\n---\n", "missing-description"],
    ["blank", "---\nname: my-skill\ndescription: '   '\n---\n", "missing-description"],
    ["a list", "---\nname: my-skill\ndescription: [a, b]\n---\n", "invalid-description"],
    ["a number", "---\nname: my-skill\ndescription: 42\n---\n", "invalid-description"],
    ["a mapping", "---\nname: my-skill\ndescription: { a: b }\n---\n", "invalid-description"],
    ["a boolean", "---\nname: my-skill\ndescription: true\n---\n", "invalid-description"],
  ])("skips a description that is %s", (_label, text, code) => {
    expect(skippedCode(text)).toBe(code);
  });

  it.each([
    ["|", "Line one.\nLine two."],
    [">", "Line one. Line two."],
    [">-", "Line one. Line two."],
  ])("accepts a %s block scalar, trailing whitespace trimmed", (indicator, expected) => {
    const skill = loaded(`---\nname: my-skill\ndescription: ${indicator}\n  Line one.\n  Line two.\n\n---\n`);
    expect(skill.description).toBe(expected);
    expect(skill.warnings).toEqual([]);
  });

  it("loads a description over 1024 characters with a warning", () => {
    const skill = loaded(`---\nname: my-skill\ndescription: ${"a".repeat(1025)}\n---\n`);
    expect(skill.description).toHaveLength(1025);
    expect(codes(skill)).toEqual(["description-too-long"]);
  });

  it("counts characters, not UTF-16 units, against the 1024 limit", () => {
    expect(codes(loaded(`---\nname: my-skill\ndescription: ${"😀".repeat(1024)}\n---\n`))).toEqual([]);
  });

  it("repairs an unquoted colon in a value, with a warning", () => {
    const skill = loaded(
      "---\nname: my-skill\ndescription: Use when: the user asks about 'x'\nnote: ends with:\n---\n",
    );
    expect(skill.description).toBe("Use when: the user asks about 'x'");
    expect(skill.frontmatter.note).toBe("ends with:");
    expect(skill.warnings).toEqual([{ code: "yaml-repaired", message: expect.stringContaining("Nested mappings") }]);
  });

  it("reports the original error when the repair does not help", () => {
    const result = parse("---\nname: my-skill\ndescription: Use when: the user asks\nlist: [open\n---\n");
    expect(result).toMatchObject({
      ok: false,
      error: { code: "yaml-parse", message: expect.stringMatching(/^line 3, /) },
    });
  });
});

describe("name", () => {
  it("falls back to the folder name when missing", () => {
    const skill = loaded("---\ndescription: No name.\n---\n", "folder-name");
    expect(skill.name).toBe("folder-name");
    expect(codes(skill)).toEqual(["missing-name"]);
  });

  it("stringifies a scalar name with a warning", () => {
    const skill = loaded("---\nname: 42\ndescription: Numeric.\n---\n", "42");
    expect(skill.name).toBe("42");
    expect(codes(skill)).toEqual(["invalid-name"]);
  });

  it("uses the folder name for a list or mapping name", () => {
    const skill = loaded("---\nname: [a, b]\ndescription: Listed.\n---\n", "my-skill");
    expect(skill.name).toBe("my-skill");
    expect(codes(skill)).toEqual(["invalid-name"]);
  });

  it("warns when the name differs from its folder", () => {
    const skill = loaded("---\nname: other-name\ndescription: Moved.\n---\n", "my-skill");
    expect(skill.name).toBe("other-name");
    expect(codes(skill)).toEqual(["name-mismatch"]);
  });

  it.each(["My-Skill", "my--skill", "-my-skill", "my_skill", "a".repeat(65)])(
    "warns about the invalid name %s",
    (name) => {
      const skill = loaded(`---\nname: ${name}\ndescription: Odd name.\n---\n`, name);
      expect(skill.name).toBe(name);
      expect(codes(skill)).toEqual(["invalid-name"]);
    },
  );

  it("uses a case variant of a missing key, with a warning", () => {
    const skill = loaded("---\nName: my-skill\nDescription: Capitalised.\n---\n");
    expect(skill).toMatchObject({ name: "my-skill", description: "Capitalised." });
    expect(codes(skill)).toEqual(["case-variant-key", "case-variant-key"]);
  });

  it("prefers the exact key over a case variant", () => {
    const skill = loaded("---\nName: Display Name\nname: my-skill\ndescription: Both.\n---\n");
    expect(skill.name).toBe("my-skill");
    expect(skill.warnings).toEqual([]);
  });
});

describe("frontmatter shape", () => {
  it.each([
    ["a list", "---\n- a\n- b\n---\n"],
    ["a string", "---\njust a string\n---\n"],
    ["empty", "---\n---\n"],
  ])("skips a frontmatter that is %s", (_label, text) => {
    expect(skippedCode(text)).toBe("frontmatter-not-mapping");
  });
});

describe("excerpt", () => {
  it("keeps the start of the body, without the frontmatter, for ranking", () => {
    const body = "# Title\r\n\r\nUse this when." + " word".repeat(1_000);
    const result = parseSkillMd(`---\r\nname: x\r\ndescription: d\r\n---\r\n${body}`, {
      folderName: "x",
      maxFrontmatterBytes: 65_536,
      truncated: false,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.skill.excerpt.startsWith("# Title\n\nUse this when. word")).toBe(true);
    expect(result.skill.excerpt.length).toBeLessThanOrEqual(2_000);
    expect(result.skill.excerpt).not.toContain("description:");
  });
});
