import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BootKernel, SourceKernel } from "./boot.js";
import type { PluginEntry, SkillsKernelConfig } from "../kernel/config.js";
import { errorMessage, ToolInputError, UserError } from "../kernel/errors.js";
import type { Logger } from "../kernel/logger.js";
import type { CatalogSkill } from "../skills/catalog/catalog-types.js";
import { stagingName } from "../skills/files/install-staging.js";
import { createInstaller, installOptionsSchema } from "./installer.js";
import { digestFolder, type FolderDigest } from "./digest.js";
import type { SourceSpec } from "./source-spec.js";
import type { Credentials } from "../remote/git/spec.js";
import { catalogReader } from "../skills/files/skill-reader.js";
import { SIGNATURE_FILE } from "../skills/signing/manifest.js";
import { signatureStatus, type SignatureStatus } from "../skills/signing/status.js";
import { signerOf } from "./signer.js";
import { definePlugin } from "../kernel/config.js";
import type { AddressGuard } from "../remote/address-guard.js";
import { INTERNAL_TOKENS } from "../internal-tokens.js";

/** The most of a skill's name that labels its staging folder. */
const STAGING_LABEL_CHARS = 64;

/** The source's name inside the kernel that reads it. */
const SOURCE = "source";

/** A skill of an opened source, at the commit (or catalog state) the source was opened at. */
export interface OfferedSkill {
  readonly name: string;
  /** Its folder inside the source, POSIX separators; "" for the source's root. */
  readonly path: string;
  readonly version?: string;
  readonly skill: CatalogSkill;
}

/** A skill copied into a staging folder, not yet where any agent reads it. */
export interface StagedSkill {
  readonly offered: OfferedSkill;
  /** The staged skill folder. */
  readonly folder: string;
  readonly digest: FolderDigest;
  /** Spec problems and other warnings the install found. */
  readonly warnings: readonly string[];
  /** Whether its source's SKILL.sig is a valid signature of its files, and by whom. */
  readonly signature: SignatureStatus;
  /** Removes the staging folder (after the skill was moved out of it, or when it is refused). */
  discard(): Promise<void>;
}

export interface OpenedSource {
  readonly skills: readonly OfferedSkill[];
  /** Why each skill the source skipped was skipped (a refused archive, a digest mismatch), by its name or path. */
  readonly skipped: ReadonlyMap<string, string>;
  /**
   * Copies one skill into `<stageIn>/.installing-…/`, through the install's checks (limits, secrets,
   * unsafe paths, the audit: a high finding refuses it unless `allowRisky`).
   */
  stage(skill: OfferedSkill, stageIn: string, strict: boolean, allowRisky: boolean): Promise<StagedSkill>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Boots the one-source kernel: createKernel from the CLI, the running kernel's BOOT_KERNEL from a tool. */
  readonly boot: BootKernel;
  readonly logger: Logger;
  readonly cwd: string;
  /** Git: the commit to read (the ref was resolved before). */
  readonly commit?: string;
  /** Catalogs and remote archives: sent as `Authorization: Bearer …` (from SKILLS_KERNEL_CATALOG_TOKEN). */
  readonly catalogToken?: string;
  /** ssh-keygen's allowed signers file: a signed skill's signer is then checked and named. */
  readonly allowedSigners?: string;
  /** false: git fails on an HTTP redirect (add_skill for a caller over HTTP, whose host was checked). */
  readonly followRedirects?: boolean;
  /** Set: the source connects to no private address but its privateHosts' (add_skill for a caller over HTTP). */
  readonly addressGuard?: AddressGuard;
  /** Refuse to copy a skill whose signature does not verify against allowedSigners. */
  readonly requireSigned?: boolean;
}

/**
 * Opens a source the way the server would serve it (a kernel with that one source), so that
 * what add copies passes the same checks as what install_skill copies.
 */
export async function openSource(spec: SourceSpec, options: OpenOptions): Promise<OpenedSource> {
  const kernel = await options.boot({
    config: sourceConfig(spec, options),
    baseDir: options.cwd,
    configSource: "add",
    logger: options.logger,
  });
  try {
    await kernel.catalog.ready();
    const failure = kernel.catalog.status().find((status) => status.error !== undefined);
    if (failure) throw new UserError(`${spec.written} cannot be read: ${failure.error}`, 1);
  } catch (error) {
    await kernel.close();
    throw error;
  }
  const prefix = spec.kind === "git" ? spec.repository.path : undefined;
  const skills = kernel.catalog
    .list()
    .filter((skill) => skill.source === SOURCE)
    .map((skill) => ({
      name: skill.name,
      path: [prefix, skill.path].filter((part) => part !== undefined && part !== "").join("/"),
      version: catalogVersion(spec, skill),
      skill,
    }));
  const skipped = new Map(
    kernel.catalog
      .diagnostics()
      .filter((diagnostic) => diagnostic.source === SOURCE && diagnostic.severity === "error" && diagnostic.path !== "")
      .map((diagnostic) => [diagnostic.path, diagnostic.message]),
  );
  return {
    skills,
    skipped,
    stage: (offered, stageIn, strict, allowRisky) => stage(kernel, offered, stageIn, strict, allowRisky, options),
    close: () => kernel.close(),
  };
}

/**
 * The one source's kernel serves every skill it holds, whatever the audit finds: staging audits
 * each skill it copies (refused unless --allow-risky), which a skill blocked at load could not be.
 */
const AUDIT_AT_STAGE = ["skill-policy", { audit: { [SOURCE]: "off" } }] as const;

function sourceConfig(spec: SourceSpec, options: OpenOptions): SkillsKernelConfig {
  const guard = options.addressGuard;
  // The source kernel resolves names as this one does (a test's resolver included).
  const lookup =
    guard &&
    definePlugin({
      name: "host-lookup",
      provides: [INTERNAL_TOKENS.HostLookup],
      setup: (ctx) => ctx.provide(INTERNAL_TOKENS.HostLookup, guard.lookup),
    });
  return { plugins: [AUDIT_AT_STAGE, ...(lookup ? [lookup] : []), ...sourcePlugins(spec, options)] };
}

function sourcePlugins(spec: SourceSpec, options: OpenOptions): PluginEntry[] {
  const guard = options.addressGuard
    ? { refusePrivateAddresses: { privateHosts: options.addressGuard.privateHosts } }
    : {};
  switch (spec.kind) {
    case "git": {
      const { url, path, credentials } = spec.repository;
      // The git plugin takes the credentials out of the URL again and hands them to git alone.
      const repositories = [
        { url: withCredentials(url, credentials), ref: options.commit ?? spec.repository.ref, path, name: SOURCE },
      ];
      return [["git", { repositories, followRedirects: options.followRedirects ?? true, ...guard }]];
    }
    case "catalog": {
      const headers = options.catalogToken ? { headers: { Authorization: `Bearer ${options.catalogToken}` } } : {};
      return [["http-catalog", { catalogs: [{ url: spec.url, name: SOURCE, ...headers }], ttlMs: 0, ...guard }]];
    }
    case "archive": {
      // The archive plugin's checks (no path out, no links, entry, byte and ratio limits) are the ones add passes.
      const headers =
        /^https?:\/\//i.test(spec.location) && options.catalogToken
          ? { headers: { Authorization: `Bearer ${options.catalogToken}` } }
          : {};
      return [["archive", { archives: [{ location: spec.location, name: SOURCE, ...headers }], ttlMs: 0, ...guard }]];
    }
    case "local":
      return [["fs", { roots: [{ path: spec.folder, source: SOURCE }], watch: false }]];
  }
}

function withCredentials(url: string, credentials: Credentials | undefined): string {
  if (!credentials) return url;
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(credentials.username);
  parsed.password = encodeURIComponent(credentials.password);
  return parsed.href;
}

/** A catalog's or an archive's version of a skill: its frontmatter's `version` or `metadata.version`. */
function catalogVersion(spec: SourceSpec, skill: CatalogSkill): string | undefined {
  if (spec.kind !== "catalog" && spec.kind !== "archive") return undefined;
  const { version, metadata } = skill.frontmatter as { version?: unknown; metadata?: { version?: unknown } };
  const found = version ?? metadata?.version;
  return typeof found === "string" || typeof found === "number" ? String(found) : undefined;
}

async function stage(
  kernel: SourceKernel,
  offered: OfferedSkill,
  stageIn: string,
  strict: boolean,
  allowRisky: boolean,
  { allowedSigners, requireSigned }: Pick<OpenOptions, "allowedSigners" | "requireSigned">,
): Promise<StagedSkill> {
  const defaults = installOptionsSchema.parse({});
  const installer = createInstaller(kernel.catalog, defaults.targets, defaults, process.cwd());
  // The name only labels the staging folder: cut, so that a name too long for a folder is refused
  // by the install's checks, not by the filesystem halfway through.
  const label = offered.name.replace(/[^A-Za-z0-9._-]/g, "-").slice(0, STAGING_LABEL_CHARS);
  const root = join(stageIn, stagingName("installing", label, randomBytes(6).toString("hex")));
  const discard = () => rm(root, { recursive: true, force: true });
  try {
    await mkdir(root, { recursive: true });
    const result = await installer.install({
      skill: offered.skill.qualifiedId,
      targetRoot: root,
      overwrite: false,
      dryRun: false,
      strict,
      allowRisky,
    });
    const warnings = [
      ...result.warnings.filter((warning) => !warning.startsWith("target ")),
      ...result.left_out.map((file) => `${file.path} is left out: ${file.reason}`),
    ];
    const digest = await digestFolder(result.path);
    const signature = await signatureStatus(
      catalogReader(kernel.catalog, offered.skill),
      SIGNATURE_FILE in digest.files,
      allowedSigners,
    );
    if (requireSigned && signature.verified !== true) {
      const why = signature.signed
        ? `its ${SIGNATURE_FILE} does not verify (${signature.reason ?? "unknown key"})`
        : `it has no ${SIGNATURE_FILE}`;
      throw new UserError(
        `"${offered.name}" is not installed: ${why}, and --require-signed asks for a signature by an allowed signer`,
        1,
      );
    }
    if (signature.signed && !signerOf(signature))
      warnings.push(`${SIGNATURE_FILE} does not verify (${signature.reason ?? "unknown key"}); no signer is recorded`);
    return { offered, folder: result.path, digest, warnings, signature, discard };
  } catch (error) {
    await discard();
    if (error instanceof ToolInputError || error instanceof UserError)
      throw new UserError(error.message.replace(/\s*\n\s*/g, " "), 1);
    throw new UserError(`copying "${offered.name}" failed: ${errorMessage(error)}`, 1);
  }
}
