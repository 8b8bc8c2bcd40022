import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { unzipSync } from "fflate";
import {
  definePlugin,
  parseSkillMd,
  PluginError,
  SkillFileError,
  TOKENS,
  z,
  type Diagnostic,
  type SkillFileContent,
  type CatalogSource,
  type SourceSkill,
} from "skills-kernel";

const MiB = 1024 * 1024;

const options = z.strictObject({
  /** The .zip files to serve, resolved against the config file's folder; one source each. */
  archives: z.array(z.string().min(1)).min(1),
  /** A larger archive file is refused before it is read. */
  maxArchiveBytes: z
    .number()
    .int()
    .min(1)
    .default(64 * MiB),
  /** What the archive may expand to: a zip bomb is refused, not unpacked. */
  maxUnpackedBytes: z
    .number()
    .int()
    .min(1)
    .default(256 * MiB),
});

/** Serves the skills inside .zip archives: each folder of an archive holding a SKILL.md is a skill. */
export default definePlugin({
  name: "zip",
  version: "1.0.0",
  // The kernel versions this plugin works with; a kernel outside the range refuses it by name.
  kernel: ">=0.1.0 <0.2.0",
  provides: [TOKENS.CatalogSource],
  options,
  async setup(ctx, { archives, maxArchiveBytes, maxUnpackedBytes }) {
    const names = new Set<string>();
    for (const archive of archives) {
      const file = path.resolve(ctx.baseDir, archive);
      // Checked at setup, so a typo fails the boot with a clear message instead of serving nothing.
      const stats = await stat(file).catch(() => undefined);
      if (!stats?.isFile()) throw new PluginError(ctx.name, `archive ${file} does not exist`, { exitCode: 2 });
      const name = path.basename(file).replace(/\.zip$/i, "");
      if (names.has(name)) throw new PluginError(ctx.name, `two archives are named ${name}`, { exitCode: 2 });
      names.add(name);
      ctx.contribute(TOKENS.CatalogSource, createZipSource({ name, file, maxArchiveBytes, maxUnpackedBytes }));
    }
  },
});

interface ZipSourceOptions {
  readonly name: string;
  readonly file: string;
  readonly maxArchiveBytes: number;
  readonly maxUnpackedBytes: number;
}

/** The archive is read whole at each load and kept in memory: archives of skills are small. */
export function createZipSource({ name, file, maxArchiveBytes, maxUnpackedBytes }: ZipSourceOptions): CatalogSource {
  let entries = new Map<string, Uint8Array>();

  const entry = (skillPath: string, filePath: string): Uint8Array => {
    const bytes = entries.get(joinPath(skillPath, filePath));
    if (!bytes) throw new SkillFileError(filePath, "no such file in this skill");
    return bytes;
  };

  return {
    name,
    description: file,
    async load() {
      const { size } = await stat(file);
      if (size > maxArchiveBytes) throw new PluginError("zip", `${file} is larger than ${maxArchiveBytes} bytes`);
      const diagnostics: Diagnostic[] = [];
      let unpacked = 0;
      const files = unzipSync(await readFile(file), {
        filter: (item) => {
          unpacked += item.originalSize;
          if (unpacked > maxUnpackedBytes)
            throw new PluginError("zip", `${file} unpacks to more than ${maxUnpackedBytes} bytes`);
          if (item.name.endsWith("/")) return false;
          const safe = isSafePath(item.name);
          if (!safe)
            diagnostics.push({
              severity: "error",
              source: name,
              path: item.name,
              code: "unsafe-path",
              message: "an entry outside the archive's root is ignored",
            });
          return safe;
        },
      });
      entries = new Map(Object.entries(files));

      const skills: SourceSkill[] = [];
      for (const [entryPath, bytes] of entries) {
        if (path.posix.basename(entryPath) !== "SKILL.md") continue;
        const skillPath = path.posix.dirname(entryPath) === "." ? "" : path.posix.dirname(entryPath);
        const folderName = path.posix.basename(skillPath) || name;
        const parsed = parseSkillMd(new TextDecoder().decode(bytes), {
          folderName,
          maxFrontmatterBytes: 64 * 1024,
          truncated: false,
        });
        if (!parsed.ok) {
          diagnostics.push({ severity: "error", source: name, path: entryPath, ...parsed.error });
          continue;
        }
        const { name: skillName, description, frontmatter, excerpt, warnings } = parsed.skill;
        for (const warning of warnings)
          diagnostics.push({ severity: "warning", source: name, path: entryPath, ...warning });
        skills.push({ name: skillName, description, path: skillPath, frontmatter, excerpt, rank: 0 });
      }
      return { skills, diagnostics };
    },
    async readDocument(skillPath, maxBytes) {
      return slice(entry(skillPath, "SKILL.md"), maxBytes);
    },
    async listFiles(skillPath, limit) {
      const prefix = skillPath === "" ? "" : `${skillPath}/`;
      const all = [...entries]
        .filter(([entryPath]) => entryPath.startsWith(prefix) && entryPath !== `${prefix}SKILL.md`)
        .map(([entryPath, bytes]) => ({ path: entryPath.slice(prefix.length), size: bytes.byteLength }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { files: all.slice(0, limit), omitted: Math.max(0, all.length - limit), complete: true };
    },
    async readFile(skillPath, filePath, maxBytes) {
      if (!isSafePath(filePath)) throw new SkillFileError(filePath, "not a path inside the skill");
      return slice(entry(skillPath, filePath), maxBytes);
    },
  };
}

/** A relative POSIX path that stays inside the archive (no "..", no absolute or drive paths). */
function isSafePath(entryPath: string): boolean {
  if (entryPath.startsWith("/") || entryPath.includes("\\") || /^[a-z]:/i.test(entryPath)) return false;
  return !entryPath.split("/").some((part) => part === ".." || part === ".");
}

function joinPath(skillPath: string, filePath: string): string {
  return skillPath === "" ? filePath : `${skillPath}/${filePath}`;
}

function slice(bytes: Uint8Array, maxBytes: number): SkillFileContent {
  return { bytes: bytes.subarray(0, maxBytes), size: bytes.byteLength, truncated: bytes.byteLength > maxBytes };
}
