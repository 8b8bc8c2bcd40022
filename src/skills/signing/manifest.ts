import { createHash } from "node:crypto";
import type { SkillReader } from "../files/skill-reader.js";
import { MiB } from "../files/skill-files.js";

/** The signature's file, in the skill folder; the only file the manifest leaves out. */
export const SIGNATURE_FILE = "SKILL.sig";

/** The SSH signature namespace: a signature made for git commits or another tool never passes for a skill's. */
export const SIGNATURE_NAMESPACE = "agent-skill";

/** Files a signed skill may hold, and bytes per file: past these a manifest is refused, not cut short. */
export const MAX_MANIFEST_FILES = 5_000;
export const MAX_SIGNED_FILE_BYTES = 100 * MiB;

const encoder = new TextEncoder();

/** Byte order of the UTF-8 paths, as `LC_ALL=C sort` orders them. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(encoder.encode(a), encoder.encode(b));
}

/**
 * What a signature covers: one line per file, `<sha256 hex>  <path>`, sorted by path bytes: the
 * output of `sha256sum` over the sorted file list, so `ssh-keygen -Y verify` can check it by hand
 * (docs/security.md). SKILL.md is named SKILL.md; the signature file is left out.
 */
export async function skillManifest(reader: SkillReader, signal?: AbortSignal): Promise<string> {
  const document = await reader.readDocument(MAX_SIGNED_FILE_BYTES, signal);
  if (document.truncated) throw new Error(`SKILL.md is over ${MAX_SIGNED_FILE_BYTES} bytes`);
  const listing = await reader.listFiles(MAX_MANIFEST_FILES, signal);
  if (!listing.complete || listing.omitted > 0)
    throw new Error(`the folder holds more than ${MAX_MANIFEST_FILES} files`);
  const lines = [[sha256(document.bytes), "SKILL.md"]];
  for (const file of listing.files) {
    if (file.path === SIGNATURE_FILE || file.path.toLowerCase() === "skill.md") continue;
    const content = await reader.readFile(file.path, MAX_SIGNED_FILE_BYTES, signal);
    if (content.truncated) throw new Error(`${file.path} is over ${MAX_SIGNED_FILE_BYTES} bytes`);
    lines.push([sha256(content.bytes), file.path]);
  }
  lines.sort((a, b) => byteOrder(a[1]!, b[1]!));
  return lines.map(([hash, path]) => `${hash}  ${path}\n`).join("");
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
