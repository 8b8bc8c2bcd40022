import { Buffer } from "node:buffer";

/**
 * A skill's excerpt kept as UTF-8 and decoded whenever read: a source's way to hold excerpts with
 * characters past U+00FF at about one byte a character (the fs source's compactExcerpt).
 */

/** Where a skill keeps an excerpt as UTF-8 (see withUtf8Excerpt). */
const UTF8 = Symbol("excerpt, UTF-8");

/** An excerpt's UTF-8 bytes, one to a character of a one-byte string. */
export interface Utf8Bytes {
  readonly bytes: string;
}

// One getter for every skill: a getter of its own per skill would give each its own hidden class.
function decodeExcerpt(this: { readonly [UTF8]: string }): string {
  return recode(this[UTF8], "latin1", "utf8");
}

/** `text` as UTF-8 bytes: latin1 decodes each byte to one character, a one-byte string of its own, never a view. */
export function utf8Bytes(text: string): Utf8Bytes {
  return { bytes: recode(text, "utf8", "latin1") };
}

/** Enough for any excerpt in either encoding. */
const SCRATCH = Buffer.allocUnsafe(8 * 1024);

/**
 * `text` encoded in one encoding and decoded from those bytes in another, through one buffer for
 * every call: Buffer.from takes a slice of a pool for each, and a new 8 KiB pool every few
 * excerpts.
 */
export function recode(text: string, from: "latin1" | "utf8", to: "latin1" | "utf8"): string {
  // At most three bytes a UTF-16 unit in UTF-8 (a surrogate pair takes four), one in latin1.
  if (text.length * 3 > SCRATCH.length) return Buffer.from(text, from).toString(to);
  return SCRATCH.toString(to, 0, SCRATCH.write(text, 0, from));
}

/**
 * A skill whose excerpt is kept as UTF-8 and decoded whenever read (the ranker reads it when it
 * indexes the skill): `excerpt` is an own enumerable property all the same, as a plain object's.
 */
export function withUtf8Excerpt<T extends object>(skill: T, utf8: Utf8Bytes): T & { readonly excerpt: string } {
  const kept = Object.assign(skill, { [UTF8]: utf8.bytes });
  return Object.defineProperty(kept, "excerpt", { get: decodeExcerpt, enumerable: true }) as typeof kept & { readonly excerpt: string };
}

/**
 * Whether reading `skill.excerpt` gives a string, told without decoding it: the excerpt is
 * withUtf8Excerpt's getter over UTF-8 bytes kept as a string, which always decodes to one.
 */
export function hasUtf8Excerpt(skill: object): boolean {
  return typeof (skill as { readonly [UTF8]?: unknown })[UTF8] === "string" && Object.getOwnPropertyDescriptor(skill, "excerpt")?.get === decodeExcerpt;
}
