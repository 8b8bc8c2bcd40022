import { Buffer } from "node:buffer";
import { encodeContent, MiB, type EncodedContent, type FetchedFile } from "./skill-files.js";
import type { SkillFileContent } from "../types.js";

/**
 * The most file content one answer carries, in bytes of JSON: below the official MCP SDK
 * client's 10 MiB per message (its stdio reader drops the connection past it), with room for the
 * envelope, the paths and the notes. docs/tools.md#answer-ceiling.
 */
export const ANSWER_CEILING_BYTES = 8 * MiB;

/** A file of an answer with its content encoded once: what the answer carries, and what that costs. */
export type FittedFile =
  | { readonly path: string; readonly error: string }
  | { readonly path: string; readonly file: SkillFileContent; readonly encoded: EncodedContent };

/** What encoded content costs in an answer: its JSON string, once per copy the answer holds. */
function jsonCost(encoded: EncodedContent, copies: number): number {
  return copies * Buffer.byteLength(JSON.stringify(encoded.content));
}

/**
 * The start of `file` whose content costs at most `budget` (for `copies` copies), marked
 * truncated with its whole size kept; the file itself when it fits.
 */
export function cutToFit(file: SkillFileContent, copies: number, budget: number): SkillFileContent {
  return encodedToFit(file, encodeContent(file.bytes, file.truncated), copies, budget).file;
}

/** cutToFit of a file already encoded, with the content of what it keeps encoded as the answer carries it. */
function encodedToFit(
  file: SkillFileContent,
  whole: EncodedContent,
  copies: number,
  budget: number,
): { file: SkillFileContent; encoded: EncodedContent } {
  let encoded = whole;
  let cost = jsonCost(encoded, copies);
  if (cost <= budget) return { file, encoded };
  let length = file.bytes.length;
  // JSON's cost per byte is about even through a file: scale, then shrink until it fits.
  while (cost > budget && length > 0) {
    length = Math.max(0, Math.min(length - 1, Math.floor((length * budget) / cost) - 16));
    const cut = { ...file, bytes: file.bytes.subarray(0, length), truncated: true };
    encoded = encodeContent(cut.bytes, true);
    cost = jsonCost(encoded, copies);
    if (cost <= budget) return { file: cut, encoded };
  }
  const empty = { ...file, bytes: file.bytes.subarray(0, 0), truncated: true };
  return { file: empty, encoded: encodeContent(empty.bytes, true) };
}

/**
 * The files of one answer, kept under the ceiling in order: a file that fits is kept whole; one
 * that does not fit after the files before it is left out, saying to fetch it on its own; one
 * larger than an answer can hold, asked for first, is cut to what fits, and says so. Each kept
 * file's content is encoded here, once, for the answer to carry.
 */
export function fitAnswer(files: readonly FetchedFile[], copies: number, ceiling = ANSWER_CEILING_BYTES): FittedFile[] {
  let used = 0;
  return files.map((entry) => {
    if ("error" in entry) return entry;
    const encoded = encodeContent(entry.file.bytes, entry.file.truncated);
    const cost = jsonCost(encoded, copies);
    if (used + cost <= ceiling) {
      used += cost;
      return { path: entry.path, file: entry.file, encoded };
    }
    if (used > 0) {
      const alone = cost <= ceiling ? "" : " (alone it is cut to what fits)";
      return {
        path: entry.path,
        error: `left out: with the files before it, this answer would pass its ${ceiling}-byte ceiling; fetch it in a call of its own${alone}`,
      };
    }
    const cut = encodedToFit(entry.file, encoded, copies, ceiling);
    used += jsonCost(cut.encoded, copies);
    return { path: entry.path, ...cut };
  });
}
