import { lockPath, readLock } from "../../lifecycle/lock-file.js";
import { inspectSkill } from "../../lifecycle/state.js";
import type { CliArgs } from "../args.js";
import { short, type LifecycleContext } from "./context.js";

/** `skills-kernel installed`: each skill of the lock, its agents, source, ref, commit and state. */
export async function runInstalled(args: CliArgs, context: LifecycleContext): Promise<number> {
  const file = lockPath(context.scope);
  const lock = await readLock(file);
  const skills = await Promise.all(Object.entries(lock.skills).map(([folder, entry]) => inspectSkill(folder, entry, context.scope)));
  if (args.json) {
    const rows = skills.map((skill) => ({
      name: skill.folder,
      state: skill.state,
      agents: skill.agents.map((agent) => agent.id),
      source: skill.entry.source,
      source_type: skill.entry.sourceType,
      ref: skill.entry.ref ?? null,
      pinned: skill.entry.pinned ?? false,
      commit: skill.entry.commit ?? null,
      version: skill.entry.version ?? null,
      mode: skill.entry.mode ?? null,
      missing_for: skill.missingFor,
      differing: skill.differing,
      installed_by: skill.foreign ? "npx skills" : "skills-kernel",
    }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (skills.length === 0) {
    process.stdout.write(`No skills recorded in ${file}; add one with: skills-kernel add SOURCE\n`);
    return 0;
  }
  for (const skill of skills) {
    const { entry } = skill;
    const at = entry.commit ? ` at ${short(entry.commit)}` : entry.version ? ` version ${entry.version}` : "";
    const ref = entry.ref ? `#${entry.ref}` : "";
    const detail =
      skill.state === "missing"
        ? ` (missing for ${skill.missingFor.join(", ") || "every agent"})`
        : skill.state === "modified"
          ? ` (${skill.differing.join(", ")})`
          : "";
    const by = skill.foreign ? " [installed by npx skills]" : "";
    process.stdout.write(
      `${skill.folder}  ${skill.state}${detail}  ${skill.agents.map((agent) => agent.id).join(", ") || "-"}  ${entry.source}${entry.source.includes("#") ? "" : ref}${at}${by}\n`,
    );
  }
  return 0;
}
