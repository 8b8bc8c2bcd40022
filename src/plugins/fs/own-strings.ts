import { Buffer } from "node:buffer";

/**
 * A copy of plain data (null-prototype objects, arrays, scalars) whose strings hold their own
 * characters. V8 cuts a substring as a view into the string it came from, so a 2,000-character
 * excerpt, or a name the YAML parser sliced out of the frontmatter, would keep the whole text of
 * its SKILL.md alive for as long as the skill is served.
 */
export function ownStrings<T>(value: T): T {
  if (typeof value === "string") return ownString(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(ownStrings) as T;
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(value) as object | null);
  for (const [key, item] of Object.entries(value)) copy[ownString(key)] = ownStrings(item);
  return copy as T;
}

// Short strings are copied by V8 anyway. Otherwise prepending a character makes a rope, and
// slicing it flattens the rope into a new string of its own.
function ownString(text: string): string {
  if (text.length < 13) return text;
  // Decoded from a file holding one character past U+00FF, every string cut from it takes two
  // bytes a character; re-encoded, one that needs no such character takes one.
  if (LATIN1.test(text)) return Buffer.from(text, "latin1").toString("latin1");
  return ` ${text}`.slice(1);
}

const LATIN1 = /^[\u0000-\u00ff]*$/;
