import { homedir } from "node:os";
import { basename, resolve } from "node:path";
import { z } from "zod";
import { PluginError } from "../../../kernel/errors.js";
import { remoteSource } from "../../../kit/remote-source.js";
import { RemoteDocuments } from "../../../remote/documents.js";
import { redact } from "../../../remote/http.js";
import { remoteLimitsSchema } from "../../../remote/options.js";
import { refusePrivateAddressesSchema } from "../../../remote/address-guard.js";
import { DEFAULT_UNPACK_LIMITS } from "../../../skills/archives/unpack.js";
import { expandHome } from "../../../skills/files/paths.js";
import { MiB } from "../../../skills/files/skill-files.js";
import { visibilitySchema } from "../../../skills/catalog/visibility.js";
import type { ArchiveLocation } from "./archive-bytes.js";
import { createArchiveSource } from "./source.js";

const archiveSchema = z.union([
  z.string().min(1),
  z.strictObject({
    /** A `.tar.gz` or `.zip`: a path (relative to the config's folder) or an http(s) URL. */
    location: z.string().min(1),
    /** The source's name; the archive's file name without its extension by default. */
    name: z.string().min(1).optional(),
    /** Sent with every request for a remote archive (an Authorization header). */
    headers: z.record(z.string(), z.string()).optional(),
    /** Hosts a redirect may lead to besides the archive's own origin; they get none of the headers. */
    redirectHosts: z.array(z.string().min(1)).optional(),
    /** Who sees this archive's skills (docs/security.md#per-team-visibility). */
    visibleTo: visibilitySchema.optional(),
  }),
]);

export const archiveOptionsSchema = z.strictObject({
  /** Each archive is one source. */
  archives: z.array(archiveSchema).min(1),
  /** A remote archive is revalidated (a local one read again) once this old. */
  ttlMs: z
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  /** Entries of any kind one archive may hold. */
  maxEntries: z.number().int().min(1).default(10_000),
  /** Bytes of all files of one archive together, unpacked. */
  maxUnpackedBytes: z
    .number()
    .int()
    .min(1)
    .default(64 * MiB),
  /** Connect to no loopback, link-local or private address but those of the hosts named (add_skill sets it for callers over HTTP). Narrows, so needs no trust. */
  refusePrivateAddresses: refusePrivateAddressesSchema.optional(),
  ...remoteLimitsSchema,
});

/** The archive's file name without .tar.gz, .tgz or .zip: the source's name, and a root skill's folder name. */
function stem(location: string): string {
  const last = basename(location.replace(/[?#].*$/, "").replace(/\/+$/, ""));
  return last.replace(/\.(?:tar\.gz|tgz|zip)$/i, "").replace(/[^A-Za-z0-9._-]/g, "-") || "archive";
}

/**
 * Serves the skills in `.tar.gz` and `.zip` archives, on disk or over HTTP: one skill at the
 * archive's root, or several skill folders. Every archive passes the checks a discovery index's
 * archives pass (no path out, no links, entry, byte and ratio limits) before a skill is served.
 */
export default remoteSource({
  name: "archive",
  options: archiveOptionsSchema,
  needsTrust: { options: { archives: "they are read from disk or fetched over the network, with their headers" } },
  setup(ctx, options, remote) {
    const entries = options.archives.map((entry) => (typeof entry === "string" ? { location: entry } : entry));
    const names = remote.sourceNames(
      entries.map((entry) => ({ explicit: entry.name, fallback: stem(entry.location) })),
    );
    for (const [index, entry] of entries.entries()) {
      const name = names[index]!;
      const remoteFile = /^https?:\/\//i.test(entry.location);
      if (!remoteFile && /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(entry.location)) {
        throw new PluginError(
          ctx.name,
          `"${redact(entry.location).slice(0, 200)}" is neither a file nor an http(s) URL`,
          { exitCode: 2 },
        );
      }
      const http = remoteFile
        ? remote.http({ name, headers: entry.headers, redirectHosts: entry.redirectHosts })
        : undefined;
      const location: ArchiveLocation = http
        ? { kind: "url", url: entry.location, documents: new RemoteDocuments(http, remote.cache(name)) }
        : { kind: "file", path: resolve(ctx.baseDir, expandHome(entry.location, homedir())) };
      remote.add(
        createArchiveSource({
          name,
          description: location.kind === "url" ? redact(location.url) : location.path,
          location,
          rootFolderName: stem(entry.location),
          ttlMs: options.ttlMs,
          maxArchiveBytes: options.maxTotalBytes,
          unpackLimits: {
            entries: options.maxEntries,
            bytes: options.maxUnpackedBytes,
            ratio: DEFAULT_UNPACK_LIMITS.ratio,
          },
          maxSkills: options.maxSkills,
          maxFrontmatterBytes: options.maxFrontmatterBytes,
          maxSkillFileBytes: options.maxSkillFileBytes,
          http,
        }),
        entry.visibleTo,
      );
    }
  },
});
