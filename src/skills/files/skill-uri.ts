import { distance } from "fastest-levenshtein";
import type { CatalogSkill } from "../catalog/catalog-types.js";

/*
 * The one place that decides a skill's `skill://` URI: the skill:// resources, the skills
 * extension's entries and its directory reads all map skills to URIs, and URIs back to skills,
 * through this module (docs/skills-extension.md, "URIs").
 *
 * A skill's path is a list of segments whose last one is the skill's name:
 * - a skill nested in another skill's folder (same source): the enclosing skill's path, the
 *   folders between the two, then its name (`skill://tools/pdf/SKILL.md`), so that its files
 *   have the same URIs as the enclosing skill's files they also are;
 * - a skill that answers to its plain name (the tools' id is the name): the name alone
 *   (`skill://pdf/SKILL.md`);
 * - one a higher-precedence skill shadows: its source, then its name (`skill://user/pdf/...`,
 *   id `user:pdf`); when the name repeats within the source (id `source:path`), the folders of
 *   its path come between (`skill://project/b/run/...`, id `project:b/run`).
 * Paths are claimed in catalog (precedence) order; a skill whose path another one already
 * claims, or whose files would fall under another skill's path without being nested in its
 * folder, gets no URI, with a reason.
 */

export const SKILL_SCHEME = "skill:";
/** Every skill's instructions, whatever the file is called on disk. */
export const SKILL_DOCUMENT = "SKILL.md";

/** A skill and the path of segments (decoded) its URIs start with. */
export interface MappedSkill {
  readonly skill: CatalogSkill;
  readonly segments: readonly string[];
  /** `skill://<path>`: the skill's folder as a directory resource (no trailing slash). */
  readonly root: string;
  /** `skill://<path>/SKILL.md`. */
  readonly uri: string;
}

/** A skill the catalog serves that no URI reaches, and why. */
export interface UnmappedSkill {
  readonly skill: CatalogSkill;
  readonly code: "uri-unwritable" | "uri-conflict" | "nested-name-mismatch";
  readonly message: string;
}

/** Where a URI points: a skill and a path inside its folder ("" for the folder itself). */
export interface SkillLocation {
  readonly mapped: MappedSkill;
  readonly path: string;
}

export interface SkillUriMap {
  /** In catalog order. */
  readonly mapped: readonly MappedSkill[];
  readonly unmapped: readonly UnmappedSkill[];
  /** By qualified id. */
  get(qualifiedId: string): MappedSkill | undefined;
  /**
   * The innermost skill whose path starts the URI's, and the rest as a file or folder path; for
   * a nested skill's files that is the nested skill (the same bytes either way).
   */
  locate(segments: readonly string[]): SkillLocation | undefined;
}

/** The URI of one file (or folder, "" for the root) of a mapped skill. */
export function skillFileUri(mapped: MappedSkill, path: string): string {
  return path === "" ? mapped.root : `${mapped.root}/${path.split("/").map(encodeSegment).join("/")}`;
}

/**
 * A `skill://` URI as its decoded segments (authority first), or why it is not one. Segments are
 * split before decoding, so an encoded "/" stays inside its segment.
 */
export function parseSkillUri(uri: string): { readonly segments: string[] } | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { problem: "it is not a valid URI" };
  }
  if (url.protocol !== SKILL_SCHEME)
    return { problem: `its scheme is not skill: (this server serves skills under skill:// only)` };
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "" || url.port !== "") {
    return { problem: "a skill URI has no query, fragment, user or port" };
  }
  const raw = [url.host, ...(url.pathname === "" ? [] : url.pathname.slice(1).split("/"))];
  const segments: string[] = [];
  for (const part of raw) {
    if (part === "") return { problem: "it has an empty segment (a doubled or trailing '/')" };
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { problem: "it is not valid percent-encoding" };
    }
    if (segment.includes("/")) return { problem: "it holds an encoded '/'" };
    segments.push(segment);
  }
  return { segments };
}

const encodeSegment = encodeURIComponent;

/**
 * URL parsing drops "." and ".." segments, encoded or not, and an encoded "/" would read as two
 * segments to anything that decodes before splitting: no skill URI holds them.
 */
function isWritable(segment: string): boolean {
  return segment !== "" && segment !== "." && segment !== ".." && !segment.includes("/");
}

const key = (segments: readonly string[]): string => JSON.stringify(segments);

const maps = new WeakMap<readonly CatalogSkill[], SkillUriMap>();

/**
 * The URIs of every skill in a catalog listing. The catalog replaces its listing on each change,
 * so the map is computed once per listing and shared by everyone who asks.
 */
export function mapSkillUris(skills: readonly CatalogSkill[]): SkillUriMap {
  let map = maps.get(skills);
  if (!map) {
    map = buildMap(skills);
    maps.set(skills, map);
  }
  return map;
}

function buildMap(skills: readonly CatalogSkill[]): SkillUriMap {
  const enclosing = findEnclosing(skills);
  const mapped: MappedSkill[] = [];
  const unmapped: UnmappedSkill[] = [];
  const byId = new Map<string, MappedSkill>();
  const claims = new Map<string, MappedSkill>();
  /** Every proper prefix of a claimed path, to the first skill claiming under it. */
  const under = new Map<string, MappedSkill>();

  const nestedIn = (inner: CatalogSkill, outer: CatalogSkill): boolean => {
    for (let at = enclosing.get(inner); at; at = enclosing.get(at)) if (at === outer) return true;
    return false;
  };

  for (const skill of skills) {
    const outer = enclosing.get(skill);
    let segments: string[];
    if (outer) {
      const around = byId.get(outer.qualifiedId);
      if (!around) {
        unmapped.push({
          skill,
          code: "uri-conflict",
          message: `it is nested in ${outer.qualifiedId}, which has no URI`,
        });
        continue;
      }
      const between = relative(skill.path, outer.path);
      if (between.at(-1) !== skill.name) {
        unmapped.push({
          skill,
          code: "nested-name-mismatch",
          message: `it is nested in ${around.uri} but its folder is not named "${skill.name}", so no URI can be both its own and its folder's`,
        });
        continue;
      }
      segments = [...around.segments, ...between];
    } else if (skill.id === skill.name) {
      segments = [skill.name];
    } else {
      const byPath = skill.qualifiedId !== `${skill.source}:${skill.name}`;
      segments = [skill.source, ...(byPath ? parentFolders(skill.path) : []), skill.name];
    }

    if (!segments.every(isWritable)) {
      unmapped.push({
        skill,
        code: "uri-unwritable",
        message: `its path ${JSON.stringify(segments)} has a segment no URI can hold`,
      });
      continue;
    }
    const clash = claims.get(key(segments)) ?? under.get(key(segments)) ?? prefixOwner(claims, segments);
    if (clash && !nestedIn(skill, clash.skill) && !nestedIn(clash.skill, skill)) {
      unmapped.push({
        skill,
        code: "uri-conflict",
        message: `its URI would fall under ${clash.uri} (${clash.skill.qualifiedId})`,
      });
      continue;
    }
    const root = `skill://${segments.map(encodeSegment).join("/")}`;
    const entry: MappedSkill = { skill, segments, root, uri: `${root}/${SKILL_DOCUMENT}` };
    mapped.push(entry);
    byId.set(skill.qualifiedId, entry);
    claims.set(key(segments), entry);
    for (let length = 1; length < segments.length; length++) {
      const prefix = key(segments.slice(0, length));
      if (!under.has(prefix)) under.set(prefix, entry);
    }
  }

  return {
    mapped,
    unmapped,
    get: (qualifiedId) => byId.get(qualifiedId),
    locate(segments) {
      for (let length = segments.length; length >= 1; length--) {
        const found = claims.get(key(segments.slice(0, length)));
        if (found) return { mapped: found, path: segments.slice(length).join("/") };
      }
      return undefined;
    },
  };
}

/** A claimed path that is a proper prefix of `segments`. */
function prefixOwner(claims: ReadonlyMap<string, MappedSkill>, segments: readonly string[]): MappedSkill | undefined {
  for (let length = segments.length - 1; length >= 1; length--) {
    const found = claims.get(key(segments.slice(0, length)));
    if (found) return found;
  }
  return undefined;
}

/** For each skill inside another skill's folder of the same source, the innermost such skill. */
function findEnclosing(skills: readonly CatalogSkill[]): Map<CatalogSkill, CatalogSkill> {
  const byPlace = new Map<string, CatalogSkill>();
  for (const skill of skills) {
    const place = JSON.stringify([skill.source, skill.path]);
    if (!byPlace.has(place)) byPlace.set(place, skill);
  }
  const enclosing = new Map<CatalogSkill, CatalogSkill>();
  for (const skill of skills) {
    if (skill.path === "") continue;
    const folders = skill.path.split("/");
    for (let length = folders.length - 1; length >= 0; length--) {
      const outer = byPlace.get(JSON.stringify([skill.source, folders.slice(0, length).join("/")]));
      if (outer && outer !== skill) {
        enclosing.set(skill, outer);
        break;
      }
    }
  }
  return enclosing;
}

function relative(path: string, outer: string): string[] {
  return (outer === "" ? path : path.slice(outer.length + 1)).split("/");
}

function parentFolders(path: string): string[] {
  return path === "" ? [] : path.split("/").slice(0, -1);
}

/** Skills an unknown URI may have meant, by at most this many. */
const MAX_HINTS = 3;

/**
 * Why no skill is at `uri`, with the URIs of up to 3 skills it may have meant: those named like
 * one of its segments (a source prefix left out or added), else names a typo away.
 */
export function noSkillAt(map: SkillUriMap, uri: string, segments: readonly string[]): string {
  const named = map.mapped.filter((entry) => segments.includes(entry.skill.name));
  const close =
    named.length > 0
      ? named
      : map.mapped.filter((entry) =>
          segments.some((segment) => segment.length <= 100 && distance(segment, entry.skill.name) <= 2),
        );
  const hints = close.slice(0, MAX_HINTS).map((entry) => entry.uri);
  return `no skill is served at ${uri.slice(0, 300)}${hints.length > 0 ? `; did you mean ${hints.join(", ")}?` : ""}`;
}
