import { outdatedRows } from "../../lifecycle/report.js";
import type { CliArgs } from "../args.js";
import { open, short, type LifecycleContext } from "./context.js";

/** `skills-kernel outdated`: tracked skills whose source moved on; pinned ones shown as pinned. */
export async function runOutdated(args: CliArgs, context: LifecycleContext): Promise<number> {
  const rows = await outdatedRows(context.scope, context.cwd, (spec, commit) => open(context, spec, commit), context.tokenEnv);
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
