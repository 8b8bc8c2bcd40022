import { outdatedRows } from "../../lifecycle/report.js";
import type { CliArgs } from "../args.js";
import { open, short, type LifecycleContext } from "./context.js";

/**
 * `skills-kernel outdated`: tracked skills whose own files changed at their source; pinned ones
 * shown as pinned. Exits 1 when any is outdated, as `npm outdated` does, so CI can gate on it.
 */
export async function runOutdated(args: CliArgs, context: LifecycleContext): Promise<number> {
  const rows = await outdatedRows(context.scope, (spec, commit) => open(context, spec, commit), context.tokenEnv);
  const code = rows.some((row) => row.status === "outdated") ? 1 : 0;
  if (args.json) {
    context.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return code;
  }
  if (rows.length === 0) context.io.stdout.write("No skills recorded in the lock.\n");
  for (const row of rows) {
    const move =
      row.status === "outdated" ? `  ${short(row.current ?? undefined)} -> ${short(row.latest ?? undefined)}` : "";
    context.io.stdout.write(`${row.name}  ${row.status}${move}${row.note ? `  (${row.note})` : ""}\n`);
  }
  return code;
}
