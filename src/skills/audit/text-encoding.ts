/*
 * A file's bytes as the text an agent or an editor shows: UTF-8, or UTF-16 and UTF-32 (with a
 * byte-order mark, or UTF-16 recognised by its zero bytes), which hold NUL bytes and would
 * otherwise pass for binary and go unread.
 */

/** Bytes of a file looked at to tell text from binary, as git does: a NUL means binary. */
export const SNIFF_BYTES = 8_000;

const utf8 = new TextDecoder();
const utf16le = new TextDecoder("utf-16le");
const utf16be = new TextDecoder("utf-16be");

/** UTF-32 by hand: TextDecoder has no UTF-32. Code points out of range become U+FFFD. */
function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength - (bytes.byteLength % 4));
  const chars: string[] = [];
  for (let at = 0; at < view.byteLength; at += 4) {
    const code = view.getUint32(at, littleEndian);
    chars.push(code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\uFFFD");
  }
  return chars.join("");
}

/** Which of UTF-16's two byte orders the zero bytes of mostly-ASCII text show, if either. */
function utf16Without(bytes: Uint8Array): "le" | "be" | undefined {
  const head = bytes.subarray(0, Math.min(bytes.length, SNIFF_BYTES) & ~1);
  if (head.length < 8) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let at = 0; at < head.length; at += 2) {
    if (head[at] === 0) evenZeros++;
    if (head[at + 1] === 0) oddZeros++;
  }
  const pairs = head.length / 2;
  // ASCII in UTF-16LE is a byte then a zero; a binary file has zeros on both sides.
  if (oddZeros > pairs * 0.6 && evenZeros < pairs * 0.05) return "le";
  if (evenZeros > pairs * 0.6 && oddZeros < pairs * 0.05) return "be";
  return undefined;
}

type Encoding = "utf-8" | "utf-16le" | "utf-16be" | "utf-32le" | "utf-32be";

/** How `bytes` are text, with the length of their byte-order mark; undefined when they are binary. */
function encodingOf(bytes: Uint8Array): { encoding: Encoding; bom: number } | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return { encoding: "utf-32le", bom: 4 };
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return { encoding: "utf-32be", bom: 4 };
  if (a === 0xff && b === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: "utf-16be", bom: 2 };
  if (!bytes.subarray(0, SNIFF_BYTES).includes(0)) return { encoding: "utf-8", bom: 0 };
  const order = utf16Without(bytes);
  return order && { encoding: order === "le" ? "utf-16le" : "utf-16be", bom: 0 };
}

/** Whether bytes are binary: a NUL in the first kilobytes that UTF-16 or UTF-32 does not explain. */
export function isBinary(bytes: Uint8Array): boolean {
  return encodingOf(bytes) === undefined;
}

/**
 * The text of `bytes`, or undefined for a binary file; `asText` reads a binary file as UTF-8
 * all the same (a script: a NUL does not stop a shell from running the lines around it).
 */
export function decodeText(bytes: Uint8Array, asText = false): string | undefined {
  const found = encodingOf(bytes) ?? (asText ? { encoding: "utf-8" as const, bom: 0 } : undefined);
  if (found === undefined) return undefined;
  const body = bytes.subarray(found.bom);
  switch (found.encoding) {
    case "utf-8":
      return utf8.decode(body);
    case "utf-16le":
      return utf16le.decode(body);
    case "utf-16be":
      return utf16be.decode(body);
    default:
      return decodeUtf32(body, found.encoding === "utf-32le");
  }
}
