import type { InstallResult } from "../../../lifecycle/install.js";

/** Files listed in the text before "... and N more"; the structured result lists them all. */
const SHOWN_FILES = 50;

export function renderInstall(result: InstallResult): string {
  const size = `${result.files.length} file${result.files.length === 1 ? "" : "s"}, ${result.bytes} bytes`;
  const lines = result.dry_run
    ? [
        `Dry run: would install "${result.name}" (from ${result.from}) into ${result.path}: ${size}. Nothing was written.`,
      ]
    : [`Installed "${result.name}" (from ${result.from}) into ${result.path}: ${size}.`];
  if (result.replaced)
    lines.push(result.dry_run ? "It would replace the folder there." : "It replaced the folder that was there.");
  if (result.served_as !== undefined) lines.push(`Served now as "${result.served_as}".`);
  lines.push("Files:", ...result.files.slice(0, SHOWN_FILES).map((file) => `  ${file}`));
  if (result.files.length > SHOWN_FILES) lines.push(`  ... and ${result.files.length - SHOWN_FILES} more`);
  if (result.left_out.length > 0) {
    lines.push("Left out:", ...result.left_out.map((file) => `  ${file.path}: ${file.reason}`));
  }
  if (result.warnings.length > 0) lines.push("Warnings:", ...result.warnings.map((warning) => `  ${warning}`));
  return lines.join("\n");
}
