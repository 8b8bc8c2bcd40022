import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rmdir, unlink } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { SkillsKernel } from "../create-kernel.js";
import { UserError } from "../kernel/errors.js";
import { SKILL_LIMITS } from "@modelcontextprotocol/server/ext/skills";
import {
  type Artifact,
  digestOf,
  INDEX_FILE,
  SiteBuilder,
  WELL_KNOWN_PATH,
} from "../plugins/routes/well-known/index.js";
import { linkOnTheWay } from "../skills/files/linked-folders.js";
import { describeKind } from "../lib/regular-file.js";
import type { CliIo } from "./io.js";

/**
 * The record of the files an export wrote, kept beside them: the next export removes only those,
 * and reuses a skill's artifact whose folder is unchanged and whose bytes still have the digest recorded.
 */
export const EXPORT_MANIFEST = ".skills-kernel-export.json";
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
// O_NOFOLLOW: a link swapped in after the checks fails the open instead of being followed;
// O_NONBLOCK: a FIFO there fails the fstat check instead of blocking the open.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const NAMED_LEFT_ALONE = 5;

/**
 * `skills-kernel export DIR --out SITE`: the discovery site the http transport serves, as files
 * for any static host. A file whose bytes are unchanged is not rewritten; files a previous export
 * recorded writing that are no longer part of the site are removed, and nothing else is. Nothing
 * is written or deleted through a symbolic link: a linked SITE, `.well-known`, `agent-skills` or
 * entry is refused before anything changes, as the lifecycle commands refuse linked agent folders.
 * A skill whose folder is unchanged since the last export (sizes and mtimes) and whose recorded
 * artifact still has its digest is neither read, audited nor packed again.
 */
export async function runExport(
  kernel: SkillsKernel,
  out: string,
  baseUrl: string | undefined,
  io: CliIo,
): Promise<number> {
  const root = join(out, ...WELL_KNOWN_PATH.split("/").filter(Boolean));
  await refuseLink(root, dirname(out));
  await refuseEntry(root, EXPORT_MANIFEST);
  const record = await readManifest(root, io);
  // Artifacts reused as they are on disk: their bytes were just read and checked, so not compared again.
  const reused = new Set<string>();
  const previous = async (path: string, folderVersion: string): Promise<Uint8Array | undefined> => {
    const built = record.built.get(path);
    if (built?.folder !== folderVersion) return undefined;
    // A link on the way is refused with the rest of the site's paths, once the skill is built again.
    const bytes = await refuseEntry(root, path)
      .then(() => readRegular(join(root, ...path.split("/")), SKILL_LIMITS.bytes))
      .catch(() => undefined);
    if (bytes === undefined || digestOf(bytes) !== built.digest) return undefined;
    reused.add(path);
    return bytes;
  };

  await kernel.catalog.ready();
  const site = await new SiteBuilder(kernel.logger, previous).build(
    kernel.catalog,
    new AbortController().signal,
    baseUrl,
  );
  const files = new Map<string, Uint8Array>([[INDEX_FILE, site.indexBytes]]);
  for (const [path, artifact] of site.artifacts) files.set(path, artifact.bytes);
  const stale = [...record.files].filter((path) => !files.has(path));
  for (const path of [...files.keys(), ...stale]) await refuseEntry(root, path);

  let written = 0;
  for (const [path, bytes] of files) {
    const target = join(root, ...path.split("/"));
    if (reused.has(path) || (await sameBytes(target, bytes))) continue;
    await writeBeside(target, bytes);
    written += 1;
  }
  const manifest = manifestBytes([...files.keys()], site.artifacts);
  if (!(await sameBytes(join(root, EXPORT_MANIFEST), manifest)))
    await writeBeside(join(root, EXPORT_MANIFEST), manifest);
  const removed = await removeRecorded(root, stale);
  const leftAlone = await filesUnder(root, new Set([...files.keys(), EXPORT_MANIFEST]));

  for (const left of site.leftOut)
    io.stderr.write(`skills-kernel: ${left.skill} left out (${left.code}): ${left.reason}\n`);
  if (leftAlone.length > 0) {
    const named = leftAlone.slice(0, NAMED_LEFT_ALONE).join(", ");
    const more = leftAlone.length > NAMED_LEFT_ALONE ? ` and ${leftAlone.length - NAMED_LEFT_ALONE} more` : "";
    io.stderr.write(
      `skills-kernel: left alone ${leftAlone.length} file${leftAlone.length === 1 ? "" : "s"} under ${root} that no export recorded writing: ${named}${more}\n`,
    );
  }
  io.stdout.write(
    `exported ${site.index.skills.length} skill${site.index.skills.length === 1 ? "" : "s"} to ${join(out, WELL_KNOWN_PATH.slice(1))} (${written} files written, ${removed} removed, ${files.size - written} unchanged${reused.size > 0 ? `; ${reused.size} reused unread` : ""}${site.leftOut.length > 0 ? `; ${site.leftOut.length} left out` : ""})\n`,
  );
  return 0;
}

function refusal(path: string, problem: string): UserError {
  const why =
    problem === "is a symbolic link"
      ? "is a symbolic link, and export never writes or deletes through one (it could lead anywhere)"
      : problem;
  return new UserError(`refusing to export into ${path}: it ${why}`, 1);
}

async function refuseLink(folder: string, base: string): Promise<void> {
  const linked = await linkOnTheWay(folder, base);
  if (linked) throw refusal(linked.path, linked.problem);
}

/** A path export writes or removes: no link on the way from the site's root, and a regular file if there. */
async function refuseEntry(root: string, path: string): Promise<void> {
  const target = join(root, ...path.split("/"));
  await refuseLink(target, root);
  const stats = await lstat(target).catch(() => undefined);
  if (stats && !stats.isFile()) throw refusal(target, `is ${describeKind(stats)}, where export keeps a file`);
}

/** What the last export recorded: the files it wrote, and the folder version and digest of each artifact. */
interface ExportRecord {
  readonly files: ReadonlySet<string>;
  readonly built: ReadonlyMap<string, { readonly folder: string; readonly digest: string }>;
}

const FOLDER_VERSION = /^[0-9a-f]{64}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The last export's record; empty when there is none or it is not one. An entry of `built` that is not one is dropped (that skill is built again). */
async function readManifest(root: string, io: CliIo): Promise<ExportRecord> {
  const path = join(root, EXPORT_MANIFEST);
  const text = await readRegular(path, MANIFEST_MAX_BYTES).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw refusal(path, error instanceof UserError ? error.message : `cannot be read (${error.code ?? error.message})`);
  });
  const none: ExportRecord = { files: new Set(), built: new Map() };
  if (text === undefined) return none;
  let parsed: { files?: unknown; built?: unknown } | undefined;
  try {
    parsed = JSON.parse(text.toString("utf8")) as { files?: unknown; built?: unknown };
  } catch {
    parsed = undefined;
  }
  const files = parsed?.files;
  if (!Array.isArray(files) || !files.every(isSitePath)) {
    io.stderr.write(`skills-kernel: ${path} is not an export's record of its files; no file is removed\n`);
    return none;
  }
  const built = new Map<string, { folder: string; digest: string }>();
  const recorded = new Set(files);
  if (typeof parsed?.built === "object" && parsed.built !== null)
    for (const [artifact, value] of Object.entries(parsed.built as Record<string, unknown>)) {
      const { folder, digest } = (value ?? {}) as { folder?: unknown; digest?: unknown };
      if (recorded.has(artifact) && typeof folder === "string" && FOLDER_VERSION.test(folder))
        if (typeof digest === "string" && DIGEST.test(digest)) built.set(artifact, { folder, digest });
    }
  return { files: recorded, built };
}

/** A path as the site names its files: relative, `/`-separated, never leaving the folder. */
function isSitePath(path: unknown): path is string {
  return (
    typeof path === "string" &&
    path !== EXPORT_MANIFEST &&
    path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".." && !/[\\\0]/.test(segment))
  );
}

function manifestBytes(files: readonly string[], artifacts: ReadonlyMap<string, Artifact>): Uint8Array {
  const built: Record<string, { folder: string; digest: string }> = {};
  for (const [path, artifact] of [...artifacts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (artifact.folderVersion !== undefined)
      built[path] = { folder: artifact.folderVersion, digest: digestOf(artifact.bytes) };
  const record = { writtenBy: "skills-kernel export", files: [...files].sort(), built };
  return Buffer.from(`${JSON.stringify(record, null, 2)}\n`);
}

/** A regular file's bytes, opened without following a link or blocking on a FIFO. */
async function readRegular(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new UserError(`is ${describeKind(stats)}, not a file`);
    if (stats.size > maxBytes) throw new UserError(`is over ${maxBytes} bytes`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function sameBytes(path: string, bytes: Uint8Array): Promise<boolean> {
  try {
    return Buffer.from(bytes).equals(await readRegular(path, bytes.length));
  } catch {
    return false;
  }
}

/**
 * Writes a new file beside `target` and renames it over: rename replaces a link in its place
 * instead of writing where it leads, and a reader never sees half a file.
 */
async function writeBeside(target: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${randomBytes(6).toString("hex")}.exporting`);
  const handle = await open(temp, CREATE_FLAGS, 0o666);
  try {
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Removes the files a previous export recorded and this one no longer writes, then the folders that leaves empty. */
async function removeRecorded(root: string, stale: readonly string[]): Promise<number> {
  let removed = 0;
  for (const path of stale) {
    const target = join(root, ...path.split("/"));
    const gone = await unlink(target).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
    if (!gone) continue;
    removed += 1;
    for (let folder = dirname(target); folder !== root && folder.startsWith(root + sep); folder = dirname(folder))
      if (
        !(await rmdir(folder).then(
          () => true,
          () => false,
        ))
      )
        break;
  }
  return removed;
}

/** The files under `root` (never through a link) other than `kept`, as site paths. */
async function filesUnder(root: string, kept: ReadonlySet<string>): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((path) => !kept.has(path))
    .sort();
}
