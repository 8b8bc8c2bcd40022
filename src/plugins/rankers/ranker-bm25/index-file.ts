import { Buffer } from "node:buffer";
import type { IndexParts } from "./inverted-index.js";

/**
 * The BM25 index as bytes (InvertedIndex.parts), and back. Bumped whenever the layout, the fields or
 * the analysis change, so that bytes of another layout are never read as this one.
 */
const FORMAT = 1;
/** Eight unsigned 32-bit words: magic, format, fields, documents, runs, pairs, long-field words, term characters. */
const HEADER_WORDS = 8;
/** Written in this machine's byte order: read on a machine of the other order, it is no index of ours. */
const MAGIC = 0x534b4249;

export function encodeIndex(parts: IndexParts, fieldCount: number): Uint8Array {
  const termText = parts.terms.join("");
  const termLengths = Uint32Array.from(parts.terms, (term) => term.length);
  const header = Uint32Array.of(
    MAGIC,
    FORMAT,
    fieldCount,
    parts.documents,
    parts.terms.length,
    parts.docs.length,
    parts.longFields.length,
    termText.length,
  );
  return Buffer.concat([
    bytesOf(header),
    bytesOf(termLengths),
    bytesOf(parts.frequencies),
    bytesOf(parts.docs),
    bytesOf(parts.tfs),
    bytesOf(parts.longFields),
    bytesOf(parts.lengths),
    Buffer.from(termText, "utf16le"),
  ]);
}

/** The parts `bytes` hold, or undefined for anything encodeIndex did not write for `fieldCount` fields. */
export function decodeIndex(bytes: Uint8Array, fieldCount: number): IndexParts | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < HEADER_WORDS * 4) return undefined;
  const header = new Uint32Array(copy(buffer, 0, HEADER_WORDS * 4));
  const [magic, format, fields, documents, runs, pairs, longWords, termChars] = header as unknown as number[];
  if (magic !== MAGIC || format !== FORMAT || fields !== fieldCount) return undefined;
  const sizes = [runs! * 4, runs! * 4, pairs! * 4, pairs! * 4, longWords! * 4, fields * documents! * 2, termChars! * 2];
  if (HEADER_WORDS * 4 + sizes.reduce((sum, size) => sum + size, 0) !== buffer.length) return undefined;
  let at = HEADER_WORDS * 4;
  const take = (size: number) => copy(buffer, at, (at += size));
  const termLengths = new Uint32Array(take(sizes[0]!));
  const frequencies = new Int32Array(take(sizes[1]!));
  const docs = new Int32Array(take(sizes[2]!));
  const tfs = new Int32Array(take(sizes[3]!));
  const longFields = new Int32Array(take(sizes[4]!));
  const lengths = new Uint16Array(take(sizes[5]!));
  const termText = buffer.toString("utf16le", at, at + sizes[6]!);
  const terms: string[] = [];
  let from = 0;
  for (const length of termLengths) {
    terms.push(termText.slice(from, from + length));
    from += length;
  }
  if (from !== termText.length) return undefined;
  return { documents: documents!, terms, frequencies, docs, tfs, lengths, longFields };
}

function bytesOf(array: ArrayBufferView): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** A fresh, aligned ArrayBuffer: a file's bytes start at any offset of a pooled buffer. */
function copy(buffer: Buffer, start: number, end: number): ArrayBuffer {
  const out = new ArrayBuffer(end - start);
  new Uint8Array(out).set(buffer.subarray(start, end));
  return out;
}
