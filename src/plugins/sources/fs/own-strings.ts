import { Buffer } from "node:buffer";

/**
 * A copy of plain data (null-prototype objects, arrays, scalars) whose strings hold their own
 * characters, its objects with fast properties. V8 cuts a substring as a view into the string it
 * came from, so a 2,000-character excerpt, or a name the YAML parser sliced out of the frontmatter,
 * would keep the whole text of its SKILL.md alive for as long as the skill is served.
 */
export function ownStrings<T>(value: T, oneByte = false): T {
  if (typeof value === "string") return ownString(value, oneByte) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => ownStrings(item, oneByte)) as T;
  // Filled first, its prototype set after: V8 keeps an object made by Object.create(null) as a
  // hash table, several times the memory of the same object with fast properties.
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = ownStrings(source[key], oneByte);
    // Assigned, "__proto__" would set the prototype: it is defined as an own key like any other.
    if (key === "__proto__")
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[ownString(key)] = item;
  }
  return Object.setPrototypeOf(copy, Object.getPrototypeOf(value) as object | null) as T;
}

// Short strings are copied by V8 anyway. Otherwise prepending a character makes a rope, and
// slicing it flattens the rope into a new string of its own.
/**
 * `oneByte`: the string was cut from a text known to need one byte a character (an ASCII file),
 * so it does too, and needs no check.
 */
export function ownString(text: string, oneByte = false): string {
  if (text.length < 13) return text;
  // Decoded from a file holding one character past U+00FF, every string cut from it takes two
  // bytes a character; re-encoded, one that needs no such character takes one.
  if (!oneByte && isLatin1(text)) return latin1Copy(text);
  return ` ${text}`.slice(1);
}

/** Enough for any excerpt, which is the longest string copied. */
const SCRATCH = Buffer.allocUnsafe(8 * 1024);

/**
 * A one-byte copy of a string of latin1 characters, through one buffer for every call:
 * Buffer.from takes a slice of a pool for each, and a new 8 KiB pool every few strings.
 */
function latin1Copy(text: string): string {
  if (text.length > SCRATCH.length) return Buffer.from(text, "latin1").toString("latin1");
  return SCRATCH.toString("latin1", 0, SCRATCH.write(text, 0, "latin1"));
}

const LATIN1 = /^[\u0000-\u00ff]*$/;

/** Whether V8 can keep `text` at one byte a character. */
function isLatin1(text: string): boolean {
  // ASCII, most text, is told by a native count, without running the pattern.
  return Buffer.byteLength(text, "utf8") === text.length || LATIN1.test(text);
}
