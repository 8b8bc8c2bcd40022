/**
 * Run by watch.test.ts under Node (through tsx), Bun and Deno: watches an empty root, changes it
 * step by step, stops, prints one JSON line, then must exit by itself.
 *
 *   watch-probe.ts <empty root> <watch|poll>
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { SourceSkill } from "../../../../src/skills/types.js";
import { fsOptionsSchema } from "../../../../src/plugins/sources/fs/index.js";
import { createFsSource } from "../../../../src/plugins/sources/fs/source.js";
import { defaultWatchLimit } from "../../../../src/plugins/sources/fs/watch-limit.js";
import { HAS_INOTIFY_INFO, inotifyWatches, waitFor } from "./watching.js";

const [root = "", mode = "watch"] = process.argv.slice(2);
const polling = mode === "poll" ? { maxWatchedDirectories: 0, pollIntervalMs: 100 } : {};
const { maxWatchedDirectories = defaultWatchLimit(), ...options } = fsOptionsSchema.parse({
  roots: [root],
  ...polling,
});
const source = createFsSource({
  ...options,
  maxWatchedDirectories,
  name: "probe",
  roots: [root],
  logger: createLogger("silent"),
});
const watches = () => (HAS_INOTIFY_INFO ? inotifyWatches() : 0);

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
async function write(folder: string, content: string): Promise<void> {
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, folder, "SKILL.md"), content);
}

let calls = 0;
const results: Record<string, string> = {};

type Check = (skills: readonly SourceSkill[]) => boolean;

/**
 * Makes a change, waits for the signal, checks what a reload finds, then waits until the folders
 * watched follow the tree (`folders` of them, none when polling), so the next step meets them armed.
 */
async function step(name: string, change: () => Promise<unknown>, check: Check, folders: number) {
  try {
    calls = 0;
    await change();
    await waitFor(() => calls > 0, "a change signal");
    const { skills } = await source.load(new AbortController().signal);
    if (!check(skills))
      throw new Error(`the reload found ${JSON.stringify(skills.map((s) => [s.path, s.description]))}`);
    const expected = baseline + (mode === "poll" || !HAS_INOTIFY_INFO ? 0 : folders);
    await waitFor(() => watches() === expected, `${expected} inotify watches (${watches()} now)`, 5_000);
    results[name] = "ok";
  } catch (error) {
    results[name] = String(error);
  }
}

const baseline = watches();
const stop = source.watch!(() => calls++);
await step(
  "start",
  async () => {},
  (skills) => skills.length === 0,
  1,
);
await step(
  "add",
  () => write("alpha", skill("alpha", "First.")),
  (skills) => skills.some((s) => s.name === "alpha"),
  2,
);
await step(
  "edit",
  () => write("alpha", skill("alpha", "Edited.")),
  (skills) => skills.some((s) => s.description === "Edited."),
  2,
);
const nested: Check = (skills) => skills.some((s) => s.path === "team/tools/beta");
await step("nested", () => write("team/tools/beta", skill("beta", "Nested.")), nested, 5);
const removed: Check = (skills) => !skills.some((s) => s.name === "alpha");
await step("remove", () => rm(join(root, "alpha"), { recursive: true }), removed, 4);
stop();
await waitFor(() => watches() === baseline, "the watches to be released", 2_000).catch(() => {});
console.log(JSON.stringify({ results, baseline, after: watches() }));
