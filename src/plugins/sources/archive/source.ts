import { createHash } from "node:crypto";
import { posix } from "node:path";
import { errorMessage, UserError } from "../../../kernel/errors.js";
import { ageOf } from "../../../remote/age.js";
import type { HttpClient } from "../../../remote/http.js";
import { parseRemoteSkill } from "../../../remote/parse-skill.js";
import { pollEvery, pollFreshness } from "../../../remote/poll.js";
import { createRemoteFiles, toListing, type RemoteSkillFolder } from "../../../remote/remote-files.js";
import { unpackArchive, type UnpackLimits } from "../../../skills/archives/unpack.js";
import type { Diagnostic, CatalogSource, SourceSkill, SourceSnapshot } from "../../../skills/types.js";
import { readArchiveBytes, type ArchiveLocation } from "./archive-bytes.js";
import { skillFolders } from "./skill-folders.js";

export interface ArchiveSourceSettings {
  readonly name: string;
  /** Shown in banners and list_skills: the path or the URL (credentials never in it). */
  readonly description: string;
  readonly location: ArchiveLocation;
  /** The name a skill at the archive's root falls back to: the archive's own, without its extension. */
  readonly rootFolderName: string;
  /** A remote archive is revalidated, a local one read again, once this old. */
  readonly ttlMs: number;
  readonly maxArchiveBytes: number;
  readonly unpackLimits: UnpackLimits;
  readonly maxSkills: number;
  readonly maxFrontmatterBytes: number;
  readonly maxSkillFileBytes: number;
  /** Reset before each load: one load's downloads are bounded, not the source's lifetime. */
  readonly http?: HttpClient;
}

/**
 * The skills of one `.tar.gz` or `.zip` (a skill at its root, or skill folders), read whole at
 * each load through the same checks as a discovery index's archives (src/skills/archives/unpack.ts)
 * and served from memory. A refused archive fails the load with one line saying why.
 */
export function createArchiveSource(settings: ArchiveSourceSettings): CatalogSource {
  let held = new Map<string, ReadonlyMap<string, Uint8Array>>();
  const files = createRemoteFiles(async (skillPath, file) => held.get(skillPath)?.get(file) ?? new Uint8Array());
  return {
    name: settings.name,
    description: settings.description,
    async load(signal, options): Promise<SourceSnapshot> {
      settings.http?.resetBudget();
      const fetched = await readArchiveBytes(
        settings.location,
        settings.maxArchiveBytes,
        options?.revalidate ? 0 : settings.ttlMs,
        signal,
      );
      const diagnostics: Diagnostic[] = fetched.stale
        ? [
            {
              severity: "warning",
              source: settings.name,
              path: "",
              code: "stale",
              message: `serving the archive as fetched ${ageOf(fetched.fetchedAt)}: ${fetched.error}`,
            },
          ]
        : [];
      let unpacked;
      try {
        unpacked = await unpackArchive(fetched.body, settings.description, settings.unpackLimits);
      } catch (error) {
        if (error instanceof UserError) throw new Error(`refused: ${errorMessage(error)}`);
        throw error;
      }
      // Every skill carries the digest of the archive it came from: what `add` records, and `outdated` compares.
      const artifact = { digest: `sha256:${createHash("sha256").update(fetched.body).digest("hex")}` };
      const folders = skillFolders(unpacked);
      if (folders.length === 0) throw new Error(`${settings.description} holds no SKILL.md`);
      if (folders.length > settings.maxSkills) {
        diagnostics.push({
          severity: "error",
          source: settings.name,
          path: "",
          code: "scan-limit",
          message: `the archive holds ${folders.length} skills; only the first ${settings.maxSkills} are served (maxSkills)`,
        });
      }
      const skills: SourceSkill[] = [];
      const next = new Map<string, ReadonlyMap<string, Uint8Array>>();
      const listings = new Map<string, RemoteSkillFolder>();
      for (const [rank, folder] of folders.slice(0, settings.maxSkills).entries()) {
        const folderName = folder.path === "" ? settings.rootFolderName : posix.basename(folder.path);
        const parsed = parseRemoteSkill(
          folder.files.get("SKILL.md")!,
          { source: settings.name, path: folder.path, folderName, rank },
          settings,
        );
        diagnostics.push(...parsed.diagnostics);
        if (!parsed.skill) continue;
        skills.push({ ...parsed.skill, artifact });
        next.set(folder.path, folder.files);
        listings.set(
          folder.path,
          toListing(
            [...folder.files].map(([path, bytes]) => ({ path, size: bytes.length })),
            "SKILL.md",
          ),
        );
      }
      held = next;
      files.remember(listings);
      return { skills, diagnostics };
    },
    readDocument: files.readDocument,
    listFiles: files.listFiles,
    readFile: files.readFile,
    watch: pollEvery(settings.ttlMs),
    freshness: pollFreshness(settings.ttlMs),
  };
}
