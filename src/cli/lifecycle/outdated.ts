import { differingFiles } from "../../lifecycle/digest.js";
import { lockPath, readLock, type LockEntry } from "../../lifecycle/lock-file.js";
import { resolveRef } from "../../lifecycle/resolve-git.js";
import { errorMessage } from "../../kernel/errors.js";
import type { CliArgs } from "../args.js";
import { entrySpec, findLocked, open, SCRATCH, short, type LifecycleContext } from "./context.js";

export type Freshness = "current" | "outdated" | "pinned" | "unknown";

export interface OutdatedRow {
  readonly name: string;
  readonly status: Freshness;
  readonly current: string | null;
  readonly latest: string | null;
  readonly note?: string;
}

/** Whether a locked skill's source has moved on: a branch's new commit, or a catalog's or folder's new content. */
export async function checkFreshness(name: string, entry: LockEntry, context: LifecycleContext): Promise<OutdatedRow> {
  const current = entry.commit ?? entry.version ?? null;
  if (entry.pinned) return { name, status: "pinned", current, latest: null, note: entry.ref ? `pinned to ${entry.ref}` : undefined };
  try {
    if (entry.files === undefined) return { name, status: "unknown", current, latest: null, note: "installed by npx skills: add it here to track it" };
    if (entry.sourceType === "git" && entry.url) {
      const latest = await resolveRef(entry.url, entry.ref);
      return { name, status: latest.commit === entry.commit ? "current" : "outdated", current, latest: latest.commit };
    }
    const source = await open(context, entrySpec(name, entry, context));
    try {
      const staged = await source.stage(findLocked(source, name, entry), SCRATCH, false);
      await staged.discard();
      const changed = differingFiles(entry.files, staged.digest.files).length > 0;
      return { name, status: changed ? "outdated" : "current", current, latest: staged.offered.version ?? (changed ? "changed" : current) };
    } finally {
      await source.close();
    }
  } catch (error) {
    return { name, status: "unknown", current, latest: null, note: errorMessage(error) };
  }
}

/** `skills-kernel outdated`: tracked skills whose source moved on; pinned ones shown as pinned. */
export async function runOutdated(args: CliArgs, context: LifecycleContext): Promise<number> {
  const lock = await readLock(lockPath(context.scope));
  const rows: OutdatedRow[] = [];
  for (const [name, entry] of Object.entries(lock.skills)) rows.push(await checkFreshness(name, entry, context));
  if (args.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) process.stdout.write("No skills recorded in the lock.\n");
  for (const row of rows) {
    const move = row.status === "outdated" ? `  ${short(row.current ?? undefined)} -> ${short(row.latest ?? undefined)}` : "";
    process.stdout.write(`${row.name}  ${row.status}${move}${row.note ? `  (${row.note})` : ""}\n`);
  }
  return 0;
}
