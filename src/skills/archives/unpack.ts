import { gunzipSync } from "node:zlib";
import { SKILL_LIMITS } from "@modelcontextprotocol/server/ext/skills";
import { extract } from "tar-stream";
import yauzl from "yauzl";
import { ERROR_CODES, UserError } from "../../kernel/errors.js";
import { checkRelativePath } from "../files/skill-files.js";
import type { ArchiveFile } from "./pack.js";

/** How much an archive may hold once unpacked; anything beyond is refused before it is kept. */
export interface UnpackLimits {
  /** Entries of any kind, folders included. */
  readonly entries: number;
  /** Bytes of all files together, unpacked. */
  readonly bytes: number;
  /** Unpacked bytes per archive byte, once the unpacked size passes RATIO_FLOOR_BYTES: a bomb's mark. */
  readonly ratio: number;
}

/** The Skills extension's per-skill limits bound what any host loads, so an archive holds no more. */
export const DEFAULT_UNPACK_LIMITS: UnpackLimits = {
  entries: SKILL_LIMITS.files * 2,
  bytes: SKILL_LIMITS.bytes,
  ratio: 200,
};

/** Small archives of repetitive text compress far; the ratio only matters once there is much to unpack. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/** The SKILL.md at a skill archive's root: the discovery spec's rule, the one file it must hold. */
const ROOT_DOCUMENT = "SKILL.md";

export type ArchiveKind = "tar.gz" | "zip";

/** Why an archive is refused, naming what it is (a url, a file) so the user knows which. */
export class ArchiveRefused extends UserError {
  static override readonly kind: string = "ArchiveRefused";
  constructor(label: string, reason: string) {
    super(`${label}: ${reason}`, 1, { code: ERROR_CODES.ARCHIVE_REFUSED });
  }
}

/** The archive kind its first bytes say (gzip or zip magic), or undefined for neither. */
export function archiveKind(bytes: Uint8Array): ArchiveKind | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "tar.gz";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return "zip";
  return undefined;
}

/**
 * The files of a skill archive (`.tar.gz` or `.zip`, told by its bytes), each checked before it
 * is kept: a relative path inside the folder, a regular file or a folder (no links, devices or
 * FIFOs), and within `limits`, with SKILL.md at the root. Nothing is written anywhere: the caller
 * gets bytes.
 */
export async function unpackSkillArchive(
  bytes: Uint8Array,
  label: string,
  limits: UnpackLimits = DEFAULT_UNPACK_LIMITS,
): Promise<ArchiveFile[]> {
  const files = await unpackArchive(bytes, label, limits);
  if (!files.some((file) => file.path === ROOT_DOCUMENT))
    throw new ArchiveRefused(label, `has no ${ROOT_DOCUMENT} at its root`);
  return files;
}

/**
 * The files of any archive of skills (`.tar.gz` or `.zip`), under the same checks as
 * unpackSkillArchive, each path once, wherever its SKILL.md files are.
 */
export async function unpackArchive(bytes: Uint8Array, label: string, limits: UnpackLimits): Promise<ArchiveFile[]> {
  const kind = archiveKind(bytes);
  if (kind === undefined) throw new ArchiveRefused(label, "is neither a .tar.gz nor a .zip archive");
  const budget = new Budget(label, bytes.length, limits);
  const files = kind === "zip" ? await readZip(bytes, label, budget) : await readTarGz(bytes, label, budget, limits);
  return eachPathOnce(files, label);
}

/** Counts entries and bytes as they are read, and refuses the first that goes over. */
class Budget {
  #entries = 0;
  #bytes = 0;
  constructor(
    private readonly label: string,
    private readonly packedBytes: number,
    private readonly limits: UnpackLimits,
  ) {}

  /** The entry's path without a leading "./" or trailing "/"; "" only for the root folder itself. */
  entry(path: string, isFolder: boolean): string {
    this.#entries += 1;
    if (this.#entries > this.limits.entries)
      throw new ArchiveRefused(this.label, `holds more than ${this.limits.entries} entries`);
    const clean = path.replace(/^\.\/+/, "").replace(/\/+$/, "");
    if (clean === "" && isFolder && path !== "") return clean;
    const problem = checkRelativePath(clean);
    if (problem) throw new ArchiveRefused(this.label, `entry "${path.slice(0, 120)}": ${problem}`);
    return clean;
  }

  bytes(count: number): void {
    this.#bytes += count;
    if (this.#bytes > this.limits.bytes)
      throw new ArchiveRefused(this.label, `unpacks to more than ${this.limits.bytes} bytes`);
    if (this.#bytes > RATIO_FLOOR_BYTES && this.#bytes > this.packedBytes * this.limits.ratio) {
      throw new ArchiveRefused(
        this.label,
        `unpacks to more than ${this.limits.ratio} times its own size (a compression bomb)`,
      );
    }
  }
}

async function readTarGz(
  bytes: Uint8Array,
  label: string,
  budget: Budget,
  limits: UnpackLimits,
): Promise<ArchiveFile[]> {
  let tar: Buffer;
  try {
    // Headers and padding take up to two 512-byte blocks an entry beyond the files' own bytes.
    tar = gunzipSync(bytes, { maxOutputLength: limits.bytes + (limits.entries + 2) * 1024 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArchiveRefused(
      label,
      code === "ERR_BUFFER_TOO_LARGE" ? `unpacks to more than ${limits.bytes} bytes` : "is not a readable gzip stream",
    );
  }
  const files: ArchiveFile[] = [];
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on("entry", (header, stream, next) => {
      // The reader's error is the one reported; the entry's stream is destroyed with it.
      stream.on("error", () => undefined);
      const fail = (error: unknown) => reader.destroy(error as Error);
      try {
        const path = budget.entry(header.name, header.type === "directory");
        if (header.type === "directory") {
          stream.on("end", next).resume();
          return;
        }
        if (header.type !== "file" && header.type !== "contiguous-file") {
          const target = header.linkname ? ` -> ${header.linkname.slice(0, 120)}` : "";
          throw new ArchiveRefused(
            label,
            `entry "${path}" is a ${header.type}${target}; a skill archive holds files and folders only`,
          );
        }
        budget.bytes(header.size ?? 0);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          files.push({ path, bytes: new Uint8Array(Buffer.concat(chunks)) });
          next();
        });
      } catch (error) {
        fail(error);
      }
    });
    reader.on("finish", resolve);
    reader.on("error", (error) =>
      reject(
        error instanceof ArchiveRefused
          ? error
          : new ArchiveRefused(label, `is not a readable tar archive (${(error as Error).message})`),
      ),
    );
  });
  reader.end(tar);
  await done;
  return files;
}

/** Unix file types in the high bits of a zip entry's external attributes (when made on Unix). */
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

async function readZip(bytes: Uint8Array, label: string, budget: Budget): Promise<ArchiveFile[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: true },
      (error, opened) =>
        error ? reject(new ArchiveRefused(label, `is not a readable zip archive (${error.message})`)) : resolve(opened),
    ),
  );
  const files: ArchiveFile[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) =>
        reject(
          error instanceof ArchiveRefused
            ? error
            : new ArchiveRefused(label, `is not a readable zip archive (${(error as Error).message})`),
        );
      zip.on("error", fail);
      zip.on("end", resolve);
      zip.on("entry", (entry: yauzl.Entry) => {
        try {
          const unixType = (entry.externalFileAttributes >>> 16) & S_IFMT;
          const isFolder = entry.fileName.endsWith("/") || unixType === S_IFDIR;
          const path = budget.entry(entry.fileName, isFolder);
          if (isFolder) {
            zip.readEntry();
            return;
          }
          if (unixType !== 0 && unixType !== S_IFREG) {
            throw new ArchiveRefused(
              label,
              `entry "${path}" is a link or special file; a skill archive holds files and folders only`,
            );
          }
          // The declared size first (nothing inflated yet); yauzl checks the real size matches it.
          budget.bytes(entry.uncompressedSize);
          zip.openReadStream(entry, (error, stream) => {
            if (error) return fail(error);
            const chunks: Buffer[] = [];
            stream.on("data", (chunk: Buffer) => chunks.push(chunk));
            stream.on("error", fail);
            stream.on("end", () => {
              files.push({ path, bytes: new Uint8Array(Buffer.concat(chunks)) });
              zip.readEntry();
            });
          });
        } catch (error) {
          fail(error);
        }
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return files;
}

/** A path twice would leave which of its files is served to the order of entries. */
function eachPathOnce(files: ArchiveFile[], label: string): ArchiveFile[] {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new ArchiveRefused(label, `holds "${file.path}" twice`);
    seen.add(file.path);
  }
  return files;
}
