import type { SourceSnapshot } from "../types.js";

/**
 * A source is a plugin, maybe a third party's: what it returns is checked before it can reach
 * identity resolution, so a malformed snapshot fails that source alone, as a thrown load does.
 */
export function checkSnapshot(snapshot: SourceSnapshot): SourceSnapshot {
  if (!snapshot || !Array.isArray(snapshot.skills) || !Array.isArray(snapshot.diagnostics)) {
    throw new Error("load() did not return { skills: [], diagnostics: [] }");
  }
  snapshot.skills.forEach((skill, index) => {
    const valid =
      typeof skill?.name === "string" &&
      skill.name !== "" &&
      typeof skill.description === "string" &&
      typeof skill.path === "string" &&
      typeof skill.excerpt === "string" &&
      typeof skill.rank === "number" &&
      typeof skill.frontmatter === "object" &&
      skill.frontmatter !== null;
    if (!valid)
      throw new Error(`skills[${index}] is not a skill (name, description, path, excerpt, rank, frontmatter)`);
  });
  return snapshot;
}
