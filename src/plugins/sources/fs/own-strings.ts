import { Buffer } from "node:buffer";
import { recode, utf8Bytes, type Utf8Bytes } from "../../../skills/utf8-excerpt.js";

/**
 * A copy of plain data (null-prototype objects, arrays, scalars) whose strings hold their own
 * characters, its objects with fast properties. V8 cuts a substring as a view into the string it
 * came from, so a 2,000-character excerpt, or a name the YAML parser sliced out of the frontmatter,
 * would keep the whole text of its SKILL.md alive for as long as the skill is served.
 */
export function ownStrings<T>(value: T): T {
  if (typeof value === "string") return ownString(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(ownStrings) as T;
  // Filled first, its prototype set after: V8 keeps an object made by Object.create(null) as a
  // hash table (about four times the memory of a frontmatter object with fast properties).
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = ownStrings(source[key]);
    // Assigned, "__proto__" would set the prototype: it is defined as an own key like any other.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[ownString(key)] = item;
  }
  return Object.setPrototypeOf(copy, Object.getPrototypeOf(value) as object | null) as T;
}

// Short strings are copied by V8 anyway. Otherwise prepending a character makes a rope, and
// slicing it flattens the rope into a new string of its own.
function ownString(text: string): string {
  if (text.length < 13) return text;
  // Decoded from a file holding one character past U+00FF, every string cut from it takes two
  // bytes a character; re-encoded, one that needs no such character takes one.
  if (isLatin1(text)) return recode(text, "latin1", "latin1");
  return ` ${text}`.slice(1);
}

const LATIN1 = /^[\u0000-\u00ff]*$/;

/** Whether V8 can keep `text` at one byte a character. */
export function isLatin1(text: string): boolean {
  // ASCII, most text, is told by a native count, many times faster than the pattern.
  return Buffer.byteLength(text, "utf8") === text.length || LATIN1.test(text);
}

/**
 * An excerpt as compactly as V8 allows: a string holding one character past U+00FF takes two
 * bytes a character, and most excerpts that do are English with a dash, an arrow or an emoji in
 * them, which UTF-8 keeps at about one. Such an excerpt is kept as UTF-8 (see withUtf8Excerpt); the
 * others are one-byte strings already. The UTF-8 bytes are held as the characters of a one-byte
 * string rather than in a Buffer: a Buffer costs two objects on the heap and a backing store with
 * its bookkeeping outside it, about 300 bytes an excerpt more, and sits outside the heap that
 * V8 compacts.
 */
export function compactExcerpt(excerpt: string): string | Utf8Bytes {
  return isLatin1(excerpt) ? ownString(excerpt) : utf8Bytes(excerpt);
}
