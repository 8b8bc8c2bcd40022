import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { pack } from "tar-stream";

/** One file of an archive: a path relative to the skill folder (POSIX separators) and its bytes. */
export interface ArchiveFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** ustar holds a path of at most 100 characters, or 155 + "/" + 100 split at a slash; longer needs pax headers, which some readers skip. */
const USTAR_NAME_CHARS = 100;
const USTAR_PREFIX_CHARS = 155;
const gzipped = promisify(gzip);

/** Why `path` cannot go into a plain ustar header (measured in bytes), or undefined when it can. */
export function ustarPathProblem(path: string): string | undefined {
  const bytes = Buffer.byteLength(path);
  if (bytes <= USTAR_NAME_CHARS) return undefined;
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
    if (
      Buffer.byteLength(path.slice(0, slash)) <= USTAR_PREFIX_CHARS &&
      Buffer.byteLength(path.slice(slash + 1)) <= USTAR_NAME_CHARS
    )
      return undefined;
  }
  return `the path "${path.slice(0, 80)}" is too long for a portable tar header`;
}

/**
 * A `.tar.gz` of a skill folder: files only (their folders are implied), sorted by path, with
 * SKILL.md at the root, no `./` prefix, and every header field that could vary (time, owner,
 * mode) fixed, so the same files always give the same bytes and the same digest.
 */
export async function packTarGz(files: readonly ArchiveFile[]): Promise<Uint8Array> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = new Promise<void>((resolve, reject) => {
    archive.on("data", (chunk: Buffer) => chunks.push(chunk));
    archive.on("end", resolve);
    archive.on("error", reject);
  });
  for (const file of sorted) {
    const problem = ustarPathProblem(file.path);
    if (problem) throw new Error(problem);
    archive.entry(
      {
        name: file.path,
        size: file.bytes.length,
        mode: 0o644,
        mtime: new Date(0),
        uid: 0,
        gid: 0,
        uname: "",
        gname: "",
        type: "file",
      },
      Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    );
  }
  archive.finalize();
  await collected;
  // Node's gzip writes no name and a zero time in its header: the output depends on the input alone.
  // Compressed on libuv's thread pool, so packing many skills uses a second core.
  return new Uint8Array(await gzipped(Buffer.concat(chunks)));
}
