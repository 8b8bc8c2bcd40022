import { SKILL_LIMITS, type Skill } from "@modelcontextprotocol/server/ext/skills";
import pLimit from "p-limit";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { errorMessage, SkillFileError, ToolInputError } from "../../../kernel/errors.js";
import type { JsonValue } from "../../../kernel/cache.js";
import type { Logger } from "../../../kernel/logger.js";
import { MAX_NAME_CHARS, NAME_PATTERN } from "../../../skills/skill-md/skill-md.js";
import { FETCHABLE_FILES_LIMIT, withoutSecrets } from "../../../skills/files/skill-files.js";
import { SKILL_DOCUMENT, skillFileUri, type MappedSkill } from "../../../skills/files/skill-uri.js";
import type { SkillFileContent } from "../../../skills/types.js";
import { sha256Digest, type FileFacts, type FileVersion } from "./file-facts.js";
import { verbatimFrontmatter } from "./frontmatter.js";
import { SIGNER_META_KEY, type SignerCheck } from "./signer-meta.js";

/** The extension's per-skill limits (512 files, 16 MiB): every conforming host loads skills up to them. */
export const MAX_RESOURCES = SKILL_LIMITS.files;
export const MAX_SKILL_BYTES = SKILL_LIMITS.bytes;

/** Files of one skill read at once when their digests are not known yet. */
const READ_CONCURRENCY = 8;

/** A `Skill` entry of the extension (skills/list, skills/get). */
export type SkillEntry = Skill;

/** An entry, or why the skill is not served through the extension (a diagnostic's code and message). */
export type EntryResult = { readonly entry: SkillEntry } | { readonly code: string; readonly problem: string };

interface DocumentFacts {
  readonly digest: string;
  readonly size: number;
  readonly frontmatter?: Record<string, unknown>;
  readonly problem?: string;
}

/** Makes skills' entries: the manifest from the source's listing, digests from FileFacts, computed once per version. */
export class EntryBuilder {
  constructor(
    private readonly catalog: CatalogView,
    private readonly facts: FileFacts,
    private readonly includeSecretFiles: boolean,
    private readonly logger: Logger,
    /** Names a verified signer in `_meta` (the skill-policy's allowed signers); undefined: no signer is named. */
    private readonly signers?: SignerCheck,
  ) {}

  async build(mapped: MappedSkill, signal: AbortSignal): Promise<EntryResult> {
    const { skill } = mapped;
    if (skill.name.length > MAX_NAME_CHARS || !NAME_PATTERN.test(skill.name)) {
      return {
        code: "invalid-name",
        problem: `its name "${skill.name.slice(0, 80)}" breaks the Agent Skills naming rules (lowercase letters, digits and single hyphens, at most ${MAX_NAME_CHARS}), so it cannot end a conforming URI`,
      };
    }
    try {
      return await this.#build(mapped, signal);
    } catch (error) {
      if (error instanceof SkillFileError) return { code: "unreadable", problem: `${error.path}: ${error.reason}` };
      if (error instanceof ToolInputError) return { code: "unreadable", problem: error.message };
      if (signal.aborted) throw error;
      this.logger.error(`building the skills extension entry of ${skill.qualifiedId} failed: ${errorMessage(error)}`);
      return { code: "unreadable", problem: "its files could not be read; the server's log has the details" };
    }
  }

  async #build(mapped: MappedSkill, signal: AbortSignal): Promise<EntryResult> {
    const { skill } = mapped;
    const source = this.catalog.sources.find((candidate) => candidate.name === skill.source);
    const versionOf = (file: string, size: number, mtimeMs: number | undefined): FileVersion => ({
      source: `${skill.source}\u0000${source?.description ?? ""}`,
      skillPath: skill.path,
      file,
      size,
      mtimeMs,
    });

    // The files resources/read serves: the first FETCHABLE_FILES_LIMIT listed, less those named
    // like credentials unless they are served too.
    const everyFile = await this.catalog.listFiles(skill, FETCHABLE_FILES_LIMIT, signal);
    const listing = withoutSecrets(everyFile, this.includeSecretFiles);
    if (!listing.complete) {
      return {
        code: "over-limit",
        problem: "its folder holds more entries than a listing reads, so no complete manifest can be given",
      };
    }
    if (listing.omitted > 0 || listing.files.length + 1 > MAX_RESOURCES) {
      return {
        code: "over-limit",
        problem: `it has more than ${MAX_RESOURCES} files (SKILL.md included), the extension's limit`,
      };
    }
    const listedBytes = listing.files.reduce((sum, file) => sum + file.size, 0);
    if (listedBytes > MAX_SKILL_BYTES) return overSize(listedBytes);

    const document = await this.#document(mapped, versionOf);
    if (document.problem !== undefined) return { code: "frontmatter", problem: document.problem };
    if (document.frontmatter!.name !== skill.name) {
      return {
        code: "changed",
        problem: `its SKILL.md now names "${String(document.frontmatter!.name)}"; the next reload serves it under that name`,
      };
    }

    const files = await pLimit(READ_CONCURRENCY).map(listing.files, async (file) => {
      signal.throwIfAborted();
      return {
        path: file.path,
        ...(await this.#digest(mapped, file.path, versionOf(file.path, file.size, file.mtimeMs))),
      };
    });
    const total = files.reduce((sum, file) => sum + file.size, document.size);
    if (total > MAX_SKILL_BYTES) return overSize(total);
    const signer = await this.signers?.signer(skill, everyFile, document.digest, signal);
    return {
      entry: {
        uri: mapped.uri,
        frontmatter: document.frontmatter as Skill["frontmatter"],
        resources: [
          { uri: mapped.uri, digest: document.digest, size: document.size },
          ...files.map((file) => ({ uri: skillFileUri(mapped, file.path), digest: file.digest, size: file.size })),
        ],
        ...(signer && { _meta: { [SIGNER_META_KEY]: { ...signer } } }),
      },
    };
  }

  /** The SKILL.md's digest and frontmatter: its size and mtime first (no bytes read), the whole file only for a new version. */
  async #document(
    mapped: MappedSkill,
    versionOf: (file: string, size: number, mtimeMs?: number) => FileVersion,
  ): Promise<DocumentFacts> {
    const head = await this.catalog.readDocument(mapped.skill, 0);
    const known = await this.facts.get<DocumentFacts & JsonValue>(
      "document",
      versionOf(SKILL_DOCUMENT, head.size, head.mtimeMs),
    );
    if (known !== undefined) return known;
    const whole = await this.catalog.readDocument(mapped.skill, MAX_SKILL_BYTES);
    if (whole.truncated)
      return { digest: "", size: whole.size, problem: `its SKILL.md is larger than ${MAX_SKILL_BYTES} bytes` };
    const parsed = verbatimFrontmatter(whole.bytes);
    const facts: DocumentFacts = { digest: sha256Digest(whole.bytes), size: whole.bytes.length, ...parsed };
    await this.facts.set(
      "document",
      versionOf(SKILL_DOCUMENT, whole.size, whole.mtimeMs),
      facts as DocumentFacts & JsonValue,
    );
    return facts;
  }

  async #digest(mapped: MappedSkill, path: string, listed: FileVersion): Promise<{ digest: string; size: number }> {
    const known = await this.facts.get<{ digest: string; size: number }>("digest", listed);
    if (known !== undefined) return known;
    const file: SkillFileContent = await this.catalog.readFile(mapped.skill, path, MAX_SKILL_BYTES);
    // Over the limit now (it grew since the listing): the size alone says so, whatever the digest.
    const facts = { digest: file.truncated ? "" : sha256Digest(file.bytes), size: file.size };
    if (!file.truncated) await this.facts.set("digest", { ...listed, size: file.size, mtimeMs: file.mtimeMs }, facts);
    return facts;
  }
}

function overSize(bytes: number): EntryResult {
  return {
    code: "over-limit",
    problem: `its files total ${bytes} bytes, over the extension's limit of ${MAX_SKILL_BYTES} (16 MiB)`,
  };
}
