import { MAX_NAME_CHARS } from "./skill-md.js";

const SPEC_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `name` is a valid Agent Skills name (and so a safe folder name everywhere). */
export function isSpecName(name: string): boolean {
  return name.length <= MAX_NAME_CHARS && SPEC_NAME.test(name);
}

/**
 * The folder a skill is installed as: its name when that is a valid skill name, else the name of
 * the folder it came from when that is, else a valid name derived from its name ("Ahrefs
 * Automation" becomes `ahrefs-automation`). Only when nothing valid can be derived is the name kept
 * as it is, for the install's own safety checks to judge.
 */
export function installFolderName(name: string, sourceFolder: string): string {
  if (isSpecName(name)) return name;
  const folder = sourceFolder.split("/").filter(Boolean).at(-1) ?? "";
  if (isSpecName(folder)) return folder;
  for (const candidate of [name, folder]) {
    const derived = candidate
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, MAX_NAME_CHARS)
      .replace(/-+$/, "");
    if (isSpecName(derived)) return derived;
  }
  return name;
}
