import { randomBytes } from "node:crypto";
import { mkdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { callerView, type WholeCatalog } from "../skills/catalog/catalog.js";
import type { CatalogView } from "../skills/catalog/catalog-view.js";
import type { CatalogSkill } from "../skills/catalog/catalog-types.js";
import { errorMessage, ToolInputError } from "../kernel/errors.js";
import { escapeForDisplay, hasUnsafeCharacter } from "../skills/display-text.js";
import { stagingName } from "../skills/files/install-staging.js";
import { isSecretPath, SECRET_REASON } from "../skills/files/secret-files.js";
import { checkRelativePath, hasLookAlikeSeparator } from "../skills/files/skill-files.js";
import { validateSkillDocument } from "../skills/skill-md/skill-spec.js";
import { auditBeforeInstall } from "../skills/audit/install-check.js";
import type { ListedFile } from "../skills/types.js";
import { isWithin } from "../skills/files/paths.js";
import { installFolderName } from "../skills/skill-md/folder-name.js";
import { servedRoots } from "../skills/skill-md/validate-folder.js";
import { checkDestination, checkTargetRoot, recoverLeftovers } from "./install-target.js";

export interface InstallLimits {
  /** Files per skill, SKILL.md not counted. */
  readonly maxFiles: number;
  /** Bytes per skill, SKILL.md included. */
  readonly maxBytes: number;
  /** Copy files named like credentials too (.env, *.pem…); they are left out, and said, otherwise. */
  readonly includeSecretFiles?: boolean;
}

export interface InstallRequest {
  /** A served skill's id (its plain name or a qualified id), or its name within `source`. */
  readonly skill: string;
  readonly source?: string;
  /** The folder that receives `<name>/`; absolute. Created when missing. */
  readonly targetRoot: string;
  readonly overwrite: boolean;
  readonly dryRun: boolean;
  /** Refuse a skill whose SKILL.md breaks the spec, as CI wants; by default those problems are warnings. */
  readonly strict?: boolean;
  /** Aborting stops the install before its copy is moved into place; the target is left as it was. */
  readonly signal?: AbortSignal;
  /** Install a skill the audit finds high-severity problems in (they become warnings); refused otherwise. */
  readonly allowRisky?: boolean;
  /**
   * The target is served by the server the user normally runs, though not by this kernel (the CLI
   * serving only `--skills-dir` folders): no "not served" warning.
   */
  readonly servedElsewhere?: boolean;
  /**
   * The catalog as whoever asks may see it (a tool's `catalog`, `kernel.catalogFor`): only a skill
   * in it can be installed. Absent: an anonymous caller's.
   */
  readonly catalog?: CatalogView;
}

export interface InstallResult {
  readonly name: string;
  /** The qualified id of the skill that was copied. */
  readonly from: string;
  /** Where the skill is (or, on a dry run, would be) installed. */
  readonly path: string;
  readonly dry_run: boolean;
  /** A folder of that name was (or would be) replaced. */
  readonly replaced: boolean;
  /** SKILL.md first, then the skill's other files, relative to `path`. */
  readonly files: readonly string[];
  readonly bytes: number;
  /** The id the installed skill answers to now; absent on a dry run or when no source serves the target. */
  readonly served_as?: string;
  /** Every file of the skill folder that was (or would be) left out of the copy, and why. */
  readonly left_out: readonly { readonly path: string; readonly reason: string }[];
  /** The SKILL.md's spec problems, then anything else worth knowing. */
  readonly warnings: readonly string[];
}

/** Writes one file that does not exist yet; the atomicity test injects one that fails midway. */
export type WriteNewFile = (path: string, bytes: Uint8Array) => Promise<void>;

// "wx" never follows or replaces what is there; 0o644 (less the umask) because nothing installed
// is ever made executable.
const writeNewFile: WriteNewFile = (path, bytes) => writeFile(path, bytes, { flag: "wx", mode: 0o644 });

const COPY_CONCURRENCY = 8;

// Windows refuses these as file or folder names, whatever the extension and case.
const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\..*)?$/i;
const WINDOWS_RESERVED_CHARACTER = /[<>:"|?*]/;

/**
 * The longest folder name install writes, in UTF-8 bytes: its temporary folders add about 40
 * bytes to it, and most filesystems stop at 255.
 */
const MAX_NAME_BYTES = 200;

/** Most filesystems hold no longer file or folder name: such a file could never be written. */
const MAX_FILE_NAME_BYTES = 255;
const LONG_NAME_REASON = `a file or folder name in its path is longer than ${MAX_FILE_NAME_BYTES} bytes, more than most file systems hold`;

/**
 * Copies a served skill into `<targetRoot>/<name>` through its source (listFiles, readDocument,
 * readFile), so it works for any source and the source's rules on symlinks hold. Everything is
 * written into a temporary folder inside the target root and renamed into place, so a failure
 * leaves the target as it was; a process killed midway leaves only a temporary folder that scans
 * skip and the next install removes (or, for a replaced skill, moves back). Nothing from the skill
 * is ever run or made executable.
 */
export async function installSkill(
  whole: WholeCatalog,
  limits: InstallLimits,
  request: InstallRequest,
  write: WriteNewFile = writeNewFile,
): Promise<InstallResult> {
  const { signal } = request;
  const catalog = request.catalog ?? callerView(whole, undefined);
  const checkCancelled = () => {
    if (signal?.aborted) throw new ToolInputError("the install was cancelled; nothing was changed");
  };
  await catalog.ready();
  // Unknown ids are refused here, naming the closest ones.
  const skill = catalog.resolve(request.skill, request.source);
  const { name } = skill;
  // "Ahrefs Automation" installs as ahrefs-automation (or its source folder's name), never as is.
  const folder = installFolderName(name, skill.path);
  const unsafe = unsafeNameReason(folder);
  if (unsafe) throw new ToolInputError(`refusing to install "${clip(name)}": ${unsafe}`);

  await checkTargetRoot(request.targetRoot);
  const destination = join(request.targetRoot, folder);
  const place = await servedPlace(catalog, destination);
  const existing = await checkDestination(destination);
  // A source with several roots (user: ~/.claude/skills and ~/.agents/skills) names a skill the
  // same in each: only a folder that is there can be the copy being installed.
  if (existing && place && place.source === skill.source && place.path === skill.path) {
    const others = catalog
      .list()
      .filter((other) => other.name === name && other !== skill)
      .map((other) => other.qualifiedId);
    const from = others.length > 0 ? `: install from ${others.join(" or ")}` : "";
    throw new ToolInputError(`"${clip(request.skill)}" is the copy installed at ${destination} already${from}`);
  }
  if (existing && !request.overwrite) {
    throw new ToolInputError(
      `${destination} already exists; ask to overwrite it (overwrite: true, or --force) to replace it`,
    );
  }

  const document = await catalog.readDocument(skill, limits.maxBytes, signal);
  if (document.truncated) {
    throw new ToolInputError(
      `refusing to install "${name}": its SKILL.md is ${document.size} bytes, over maxBytes (${limits.maxBytes})`,
    );
  }
  // Checked as it will be installed: in a folder named after the skill.
  const validation = validateSkillDocument(new TextDecoder().decode(document.bytes), folder);
  const specErrors = validation.errors.map((issue) => `${issue.field}: ${issue.message}`);
  if (!validation.valid && request.strict) {
    throw new ToolInputError(
      `refusing to install "${name}" (strict): its SKILL.md breaks the Agent Skills spec: ${specErrors.join("; ")}`,
    );
  }
  const warnings = [
    ...specErrors.map((error) => `spec: ${error} (installed anyway; strict refuses it)`),
    ...validation.warnings.map((issue) => `${issue.field}: ${issue.message}`),
  ];

  checkCancelled();
  const listing = await catalog.listFiles(skill, limits.maxFiles, signal);
  if (!listing.complete) {
    // A copy of part of a skill would be served as if it were whole.
    throw new ToolInputError(
      `refusing to install "${name}": its folder is larger than a listing reads, so a copy could not be complete`,
    );
  }
  if (listing.omitted > 0) {
    throw new ToolInputError(
      `refusing to install "${name}": it holds ${listing.files.length + listing.omitted} files, over maxFiles (${limits.maxFiles})`,
    );
  }
  for (const file of listing.files) {
    // The source already refuses such paths; a path that could step out of the target is checked here anyway.
    const problem = checkRelativePath(file.path);
    if (problem)
      throw new ToolInputError(
        `refusing to install "${name}": its file "${clip(file.path)}" cannot be copied: ${problem}`,
      );
  }
  const leftOut = (listing.leftOut ?? []).map((file) => ({ path: escapeForDisplay(file.path), reason: file.reason }));
  const copied: ListedFile[] = [];
  for (const file of listing.files) {
    // A folder holding both SKILL.md and skill.md lists the one it does not serve; on a
    // case-insensitive disk the two would be one file.
    if (file.path.toLowerCase() === "skill.md")
      leftOut.push({ path: file.path, reason: "the installed SKILL.md takes its place" });
    else if (!limits.includeSecretFiles && isSecretPath(file.path))
      leftOut.push({ path: file.path, reason: SECRET_REASON });
    else if (file.path.split("/").some((segment) => Buffer.byteLength(segment) > MAX_FILE_NAME_BYTES))
      leftOut.push({ path: escapeForDisplay(file.path), reason: LONG_NAME_REASON });
    else copied.push(file);
  }
  leftOut.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const bytes = copied.reduce((sum, file) => sum + file.size, document.size);
  if (bytes > limits.maxBytes) {
    throw new ToolInputError(
      `refusing to install "${name}": it holds ${bytes} bytes, over maxBytes (${limits.maxBytes})`,
    );
  }

  // Before anything is written: a refused skill leaves nothing behind.
  checkCancelled();
  warnings.push(...(await auditBeforeInstall(catalog, skill, { allowRisky: request.allowRisky, signal })));

  const files = ["SKILL.md", ...copied.map((file) => file.path)];
  const result = {
    name,
    from: skill.qualifiedId,
    path: destination,
    replaced: existing,
    files,
    bytes,
    left_out: leftOut,
  };
  if (request.dryRun) {
    if (!place && !request.servedElsewhere) warnings.push(notServed(request.targetRoot));
    return { ...result, dry_run: true, warnings };
  }

  let root: string;
  let temp: string;
  try {
    // mkdir, not mkdtemp: the folders get the user's umask, as any folder they make would.
    await mkdir(request.targetRoot, { recursive: true });
    root = await realpath(request.targetRoot);
    warnings.push(...(await recoverLeftovers(root)));
    temp = join(root, stagingName("installing", folder, randomBytes(6).toString("hex")));
    await mkdir(temp);
  } catch (error) {
    throw new ToolInputError(`cannot write into ${request.targetRoot}: ${errorMessage(error)}`);
  }
  let copiedBytes: number;
  try {
    copiedBytes = await copyFiles(catalog, skill, copied, temp, write, limits.maxBytes - document.size, signal);
    checkCancelled();
    // Last, so a scan that runs meanwhile never takes the half-copied folder for a skill.
    await write(join(temp, "SKILL.md"), document.bytes);
    checkCancelled();
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (signal?.aborted) throw new ToolInputError("the install was cancelled; nothing was changed");
    throw new ToolInputError(`installing "${name}" failed; nothing was changed: ${errorMessage(error)}`);
  }
  await moveIntoPlace(temp, join(root, folder), existing, warnings);

  const servedAs = place ? await refreshUntilServed(catalog, place) : null;
  if (servedAs === null) {
    if (!request.servedElsewhere) warnings.push(notServed(request.targetRoot));
  } else if (servedAs === undefined)
    warnings.push(
      `installed, but its source does not list it after a reload (is ${root} deeper than the fs plugin's maxDepth?)`,
    );
  else if (servedAs !== name)
    warnings.push(`another skill named "${name}" takes precedence; this one is served as ${servedAs}`);
  const copiedResult = { ...result, bytes: document.size + copiedBytes };
  return {
    ...copiedResult,
    dry_run: false,
    ...(typeof servedAs === "string" ? { served_as: servedAs } : {}),
    warnings,
  };
}

/**
 * Why `name` cannot be a folder name in a target root, or undefined when it can. Only what is
 * unsafe is refused (a name that would step out of the target, hide, or not be writable on some
 * system); a name the spec merely dislikes (capitals, spaces) installs with a warning.
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name === "") return "the name is empty";
  if (/[/\\]/.test(name) || hasLookAlikeSeparator(name))
    return "the name holds a path separator, or a character that looks like one";
  if (name.startsWith(".")) return "the name starts with a dot";
  if (hasUnsafeCharacter(name)) return "the name holds a control or invisible formatting character";
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `the name is longer than ${MAX_NAME_BYTES} bytes`;
  if (WINDOWS_RESERVED_CHARACTER.test(name))
    return 'the name holds a character Windows refuses in file names (<>:"|?*)';
  if (/[. ]$/.test(name) || /^ /.test(name)) return "the name starts or ends with a space, or ends with a dot";
  if (WINDOWS_DEVICE_NAME.test(name)) return "the name is a device name on Windows";
  return undefined;
}

/**
 * Copies every file, a few at a time, and returns the bytes copied; on a failure or a
 * cancellation, waits for the writes in flight before reporting it. Reads are capped by what is
 * left of `budget`, not by the listed sizes: a source may not know them (a catalog lists 0).
 */
async function copyFiles(
  catalog: CatalogView,
  skill: CatalogSkill,
  files: readonly ListedFile[],
  temp: string,
  write: WriteNewFile,
  budget: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  let next = 0;
  let copied = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < files.length) {
      const file = files[next++]!;
      try {
        signal?.throwIfAborted();
        const content = await catalog.readFile(skill, file.path, Math.max(1, budget - copied), signal);
        copied += content.bytes.length;
        if (content.truncated || copied > budget) throw new Error("its files hold more bytes than maxBytes allows");
        const target = join(temp, ...file.path.split("/"));
        await mkdir(dirname(target), { recursive: true });
        await write(target, content.bytes);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, files.length) }, worker));
  if (failure) throw failure.error;
  return copied;
}

/**
 * Renames the copy into place. A folder being replaced is moved aside first and removed only once
 * the copy is in place; if that rename fails, it is moved back. Killed between the two renames,
 * the next install moves it back (recoverLeftovers).
 */
async function moveIntoPlace(temp: string, destination: string, replacing: boolean, warnings: string[]): Promise<void> {
  const fail = async (error: unknown): Promise<never> => {
    await rm(temp, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTEMPTY") {
      throw new ToolInputError(`${destination} appeared while installing; nothing was changed`);
    }
    throw new ToolInputError(`installing into ${destination} failed; nothing was changed: ${errorMessage(error)}`);
  };
  if (!replacing) {
    await rename(temp, destination).catch(fail);
    return;
  }
  const aside = join(
    dirname(destination),
    stagingName("replaced", basename(destination), randomBytes(6).toString("hex")),
  );
  await rename(destination, aside).catch(fail);
  try {
    await rename(temp, destination);
  } catch (error) {
    try {
      await rename(aside, destination);
    } catch (restoreError) {
      await rm(temp, { recursive: true, force: true });
      throw new ToolInputError(
        `installing into ${destination} failed (${errorMessage(error)}), and moving the previous copy back failed too (${errorMessage(restoreError)}): it is at ${aside}`,
      );
    }
    await fail(error);
  }
  await rm(aside, { recursive: true, force: true }).catch((error: unknown) => {
    warnings.push(`the replaced copy was left at ${aside}: ${errorMessage(error)}`);
  });
}

interface ServedPlace {
  readonly source: string;
  /** Relative to the source's root, POSIX separators, as the source reports a skill's path. */
  readonly path: string;
}

/** Where the skill folder `dir` is (or would be) served from: the first source root that holds it. */
async function servedPlace(catalog: CatalogView, dir: string): Promise<ServedPlace | undefined> {
  // The target root may not exist yet; when it does, its real path is what the roots compare with.
  const real = await realpath(dirname(dir)).then(
    (parent) => join(parent, basename(dir)),
    () => dir,
  );
  const served = (await servedRoots(catalog.sources)).find(({ root }) => isWithin(real, root));
  return served && { source: served.source, path: relative(served.root, real).split(sep).join("/") };
}

/** Reloads the source that serves `place`: the installed skill's id, or undefined when it is not listed. */
async function refreshUntilServed(catalog: CatalogView, place: ServedPlace): Promise<string | undefined> {
  // refresh() covers a load that starts after the call, so the new folder is always seen.
  await catalog.refresh(place.source);
  return catalog.list().find((skill) => skill.source === place.source && skill.path === place.path)?.id;
}

function notServed(targetRoot: string): string {
  return `target ${targetRoot} is not served by any source; add it to the fs plugin's roots`;
}

function clip(text: string): string {
  const shown = escapeForDisplay(text);
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}
