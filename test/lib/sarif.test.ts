import { describe, expect, it } from "vitest";
import { FINGERPRINT_KEY, type SarifResult, type SarifTool, sarifLog, sarifUri } from "../../src/lib/sarif.js";
import { sarifSchemaErrors } from "../helpers/sarif-schema.js";

const tool: SarifTool = {
  name: "example",
  version: "1.0.0",
  informationUri: "https://example.com/docs",
  rules: [
    {
      id: "r1",
      level: "error",
      summary: "Reports r1",
      description: "Reports r1, at length.",
      help: { text: "Fix it.", markdown: "**Fix** it." },
      helpUri: "https://example.com/docs#r1",
      securitySeverity: 8,
      tags: ["security", "external/cwe/cwe-494"],
    },
    { id: "r2", level: "note", summary: "Reports r2", description: "r2.", help: { text: "t", markdown: "m" } },
  ],
};

const result = (file: string, extra: Partial<SarifResult> = {}): SarifResult => ({
  ruleId: "r1",
  message: "found",
  file,
  identity: "found",
  line: 3,
  ...extra,
});

/** Names a file system allows and a URI reference does not, as written. */
const HOSTILE_NAMES = [
  "odd/we#ird?.md",
  "two#hash#es.md",
  "a b/100%.sh",
  "c:/x.md",
  "javascript:alert(1)/SKILL.md",
  "[brackets]/{braces}/pipe|tab\t.md",
  "back\\slash.md",
  "new\nline.md",
  "ünïcödé/日本語.md",
  "lone\ud800surrogate.md",
  "quote\"and'apos<>.md",
];

describe("the SARIF writer", () => {
  it("writes a log that is valid SARIF 2.1.0, formats included, whatever the file names", () => {
    const log = sarifLog(
      tool,
      HOSTILE_NAMES.map((name) => result(name)),
    );
    expect(sarifSchemaErrors(log)).toBe("");
    const uris = log.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation!.artifactLocation!.uri!);
    for (const uri of uris) {
      expect(uri).not.toMatch(/[#?\s%](?![0-9A-F]{2})/);
      // Read back, each URI names the file it was given: nothing became a query, fragment or scheme.
      expect(new URL(uri, "file:///root/").pathname.startsWith("/root/")).toBe(true);
    }
    expect(uris.map((uri) => uri.split("/").map(decodeURIComponent).join("/"))).toEqual(
      HOSTILE_NAMES.map((name) => name.replace("\ud800", "\ufffd")),
    );
    expect(sarifUri("odd/we#ird?.md")).toBe("odd/we%23ird%3F.md");
  });

  it("a schema check that can fail: a result without a message, and a URI with a space, are refused", () => {
    expect(
      sarifSchemaErrors({ version: "2.1.0", runs: [{ tool: { driver: { name: "x" } }, results: [{}] }] }),
    ).not.toBe("");
    const log = sarifLog(tool, [result("ok.md")]);
    log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation!.uri = "a b#c#d";
    expect(sarifSchemaErrors(log)).toContain("uri-reference");
  });

  it("gives every result a start line, whole-file results line 1", () => {
    const log = sarifLog(tool, [result("a.md", { line: undefined }), result("b.md", { line: 0 }), result("c.md")]);
    expect(log.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation!.region!.startLine)).toEqual([1, 1, 3]);
  });

  it("lists each rule with its help, full description and severity, and results point at their rule", () => {
    const log = sarifLog(tool, [result("a.md", { ruleId: "r2" }), result("b.md")]);
    const [rule] = log.runs[0]!.tool.driver.rules!;
    expect(rule).toMatchObject({
      id: "r1",
      shortDescription: { text: "Reports r1" },
      fullDescription: { text: "Reports r1, at length." },
      help: { text: "Fix it.", markdown: "**Fix** it." },
      helpUri: "https://example.com/docs#r1",
      defaultConfiguration: { level: "error" },
      properties: { "security-severity": "8.0", tags: ["security", "external/cwe/cwe-494"] },
    });
    expect(log.runs[0]!.results!.map((r) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ["r2", 1, "note"],
      ["r1", 0, "error"],
    ]);
    expect(() => sarifLog(tool, [result("a.md", { ruleId: "nope" })])).toThrow(/does not list/);
  });

  it("fingerprints a result by rule, file and identity: the same when its line moves, apart when repeated", () => {
    const fingerprints = (results: SarifResult[]) =>
      sarifLog(tool, results).runs[0]!.results!.map((r) => r.partialFingerprints![FINGERPRINT_KEY]);
    const [before] = fingerprints([result("a.md", { line: 3 })]);
    const [after] = fingerprints([result("a.md", { line: 40 })]);
    expect(after).toBe(before);
    const others = fingerprints([
      result("a.md"),
      result("a.md"),
      result("b.md"),
      result("a.md", { identity: "other" }),
      result("a.md", { ruleId: "r2" }),
    ]);
    expect(new Set(others).size).toBe(5);
    expect(others[0]).toBe(before);
    expect(others[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("writes a file outside the uploaded folder as an absolute file:// URI, with no base", () => {
    const log = sarifLog(tool, [result("/home/me/.claude/skills/we#ird/SKILL.md")]);
    expect(sarifSchemaErrors(log)).toBe("");
    expect(log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation).toEqual({
      uri: "file:///home/me/.claude/skills/we%23ird/SKILL.md",
    });
  });
});
