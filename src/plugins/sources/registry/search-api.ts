import { isRecord } from "../../../skills/skill-md/skill-md.js";

/** One answer of a skills.sh-style search: `owner/repo/skill`. */
export interface RegistryHit {
  readonly id: string;
  readonly owner: string;
  readonly repo: string;
  readonly skill: string;
  readonly installs?: number;
}

const SEGMENT = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Reads a search answer (`{ skills: [{ id: "owner/repo/skill", name, installs, source }] }`, as
 * skills.sh gives it). Entries that do not name a GitHub repository and a skill are left out: an
 * id becomes URL segments, so it must be plain.
 */
/** `owner/repo/skill`, each part a plain name: it becomes GitHub URL segments and a skill path. */
export function isRegistryId(id: string): boolean {
  const parts = id.split("/");
  return parts.length === 3 && parts.every((part) => SEGMENT.test(part) && part !== "." && part !== "..");
}

export function parseSearchAnswer(text: string): RegistryHit[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("the registry's answer is not JSON");
  }
  if (!isRecord(data) || !Array.isArray(data.skills)) throw new Error('the registry\'s answer has no "skills" array');
  const hits: RegistryHit[] = [];
  for (const entry of data.skills) {
    if (!isRecord(entry)) continue;
    const source = typeof entry.source === "string" ? entry.source : undefined;
    const skillId =
      typeof entry.skillId === "string" ? entry.skillId : typeof entry.name === "string" ? entry.name : undefined;
    const id = typeof entry.id === "string" ? entry.id : source && skillId ? `${source}/${skillId}` : undefined;
    if (id === undefined || !isRegistryId(id)) continue;
    const [owner, repo, skill] = id.split("/") as [string, string, string];
    hits.push({
      id: id!,
      owner,
      repo,
      skill,
      installs: typeof entry.installs === "number" ? entry.installs : undefined,
    });
  }
  return hits;
}
