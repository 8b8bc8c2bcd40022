import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseSkillMd } from "../../src/skills/skill-md/skill-md.js";
import { validateSkillDocument } from "../../src/skills/skill-md/skill-spec.js";
// @ts-expect-error: a plain .mjs fixture, shared with the script the bundle runs
import { YAML_DOCUMENTS } from "../fixtures/bundle/yaml-documents.mjs";
import { RUNTIMES, scriptOn, type Runtime } from "../helpers/cli.js";

const SCRIPT = fileURLToPath(new URL("../fixtures/bundle/yaml-frontmatter.mjs", import.meta.url));

// The bundle evaluates the yaml package on first use, not at import (scripts/build.mjs): the
// SKILL.md parser and validator must read what only yaml reads exactly as the source does.
describe.each(Object.keys(RUNTIMES) as Runtime[])("the bundle's yaml frontmatter on %s", (runtime) => {
  it("parses and validates as the source does", () => {
    const result = spawnSync(...scriptOn(runtime, SCRIPT), { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    const options = { folderName: "folded", maxFrontmatterBytes: 65_536, truncated: false };
    const expected = (YAML_DOCUMENTS as string[]).map((text) => ({
      parsed: parseSkillMd(text, options),
      validated: validateSkillDocument(text, "folded"),
    }));
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    // Each document reached yaml: the fast path would not have reported these.
    expect(JSON.stringify(expected)).toContain("Folded over two lines.");
  });
});
