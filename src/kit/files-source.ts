import { posix } from "node:path";
import { parseRemoteSkill } from "../remote/parse-skill.js";
import { createRemoteFiles, type RemoteSkillFolder, toListing } from "../remote/remote-files.js";
import { MAX_FILE_DEPTH, MAX_LISTED_ENTRIES, SKIPPED_FOLDERS } from "../skills/files/folder-rules.js";
import type { Diagnostic, ListedFile, CatalogSource, SourceSkill } from "../skills/types.js";

/**
 * Storage of skill folders in two operations over relative, "/"-separated paths ("" is the root):
 * the shape of the MCP SDK's `SkillFiles`, so its `memorySkillFiles` and `nodeSkillFiles` fit.
 */
export interface SkillFiles {
  /** The entries of folder `dir`, by name and kind; an `unsupported` one (neither file nor folder) is left out. */
  list(dir: string): Promise<readonly { readonly name: string; readonly kind: "file" | "directory" | "unsupported" }[]>;
  /** The whole content of the file at `path`. */
  read(path: string): Promise<Uint8Array>;
}

// The fs source's parser limits (src/remote/options.ts holds the same defaults for remote sources).
const PARSE_LIMITS = { maxFrontmatterBytes: 64 * 1024, maxSkillFileBytes: 256 * 1024 };
const SKILL_DOCUMENT = "SKILL.md";

const join = (dir: string, name: string) => (dir === "" ? name : name === "" ? dir : `${dir}/${name}`);

/**
 * A skill source over a SkillFiles adapter: every folder holding a SKILL.md is a skill, its other
 * files (sizes read at load, as the SDK's catalog does) are what read_skill lists and serves.
 */
export function filesSource(name: string, description: string, files: SkillFiles): CatalogSource {
  const { remember, ...reads } = createRemoteFiles((skillPath, file) => files.read(join(skillPath, file)));
  return {
    name,
    description,
    ...reads,
    async load(signal) {
      const diagnostics: Diagnostic[] = [];
      const skills: SourceSkill[] = [];
      const folders = new Map<string, RemoteSkillFolder>();
      const problem = (path: string, code: string, message: string, severity: Diagnostic["severity"] = "error") =>
        diagnostics.push({ severity, source: name, path, code, message });
      const visit = async (dir: string): Promise<void> => {
        signal.throwIfAborted();
        const entries = await files.list(dir);
        if (!entries.some((entry) => entry.name === SKILL_DOCUMENT && entry.kind === "file")) {
          for (const entry of entries)
            if (entry.kind === "directory" && !SKIPPED_FOLDERS.has(entry.name)) await visit(join(dir, entry.name));
          return;
        }
        const document = join(dir, SKILL_DOCUMENT);
        const parsed = parseRemoteSkill(
          await files.read(document),
          { source: name, path: dir, folderName: posix.basename(dir) || name, rank: skills.length },
          PARSE_LIMITS,
        );
        diagnostics.push(...parsed.diagnostics.map((d) => ({ ...d, path: document })));
        if (!parsed.skill) return;
        const folderFiles: ListedFile[] = [];
        const walk = async (sub: string, depth: number): Promise<void> => {
          for (const entry of await files.list(join(dir, sub))) {
            const path = join(sub, entry.name);
            if (folderFiles.length > MAX_LISTED_ENTRIES) return;
            if (entry.kind === "unsupported")
              problem(join(dir, path), "unsupported-file", "not a regular file or folder: left out", "warning");
            else if (entry.kind === "directory" && depth < MAX_FILE_DEPTH && !SKIPPED_FOLDERS.has(entry.name))
              await walk(path, depth + 1);
            else if (entry.kind === "file" && path !== SKILL_DOCUMENT)
              folderFiles.push({ path, size: (await files.read(join(dir, path))).byteLength });
          }
        };
        await walk("", 0);
        folders.set(dir, toListing(folderFiles, SKILL_DOCUMENT));
        skills.push(parsed.skill);
      };
      // Storage that fails fails the load, as in the SDK: the catalog keeps what it last had.
      await visit("");
      remember(folders);
      return { skills, diagnostics };
    },
  };
}
