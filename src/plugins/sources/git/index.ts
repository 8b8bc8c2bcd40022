import { join } from "node:path";
import { z } from "zod";
import { PluginError } from "../../../kernel/errors.js";
import { remoteSource } from "../../../kit/remote-source.js";
import { remoteLimitsSchema } from "../../../remote/options.js";
import { refusePrivateAddressesSchema } from "../../../remote/address-guard.js";
import { visibilitySchema } from "../../../skills/catalog/visibility.js";
import { DEFAULT_PROTOCOLS } from "../../../remote/git/run.js";
import { tokenCredentials, tokenEnvProblem } from "../../../remote/git/host-tokens.js";
import { createGitSource } from "./source.js";
import {
  checkFolder,
  checkRef,
  defaultSourceName,
  parseRepositorySpec,
  redactCredentials,
  type RepositorySpec,
} from "../../../remote/git/spec.js";

const repositorySchema = z.union([
  z.string().min(1),
  z.strictObject({
    /** https://, ssh://, file:// or user@host:path; or owner/repo for GitHub. */
    url: z.string().min(1),
    /** A branch, tag or full commit id; the remote's default branch when absent. */
    ref: z.string().min(1).optional(),
    /** The folder of the repository that holds the skills. */
    path: z.string().min(1).optional(),
    /** The source's name (the prefix of qualified ids); owner-repo by default. */
    name: z.string().min(1).optional(),
    /** Who sees this repository's skills (docs/security.md#per-team-visibility). */
    visibleTo: visibilitySchema.optional(),
  }),
]);

export const gitOptionsSchema = z.strictObject({
  /** Each repository is one source: `URL|owner/repo[#REF][:PATH]`, or an object. */
  repositories: z.array(repositorySchema).min(1),
  /** How long a branch's commit is trusted before the remote is asked again (a commit never is). */
  refTtlMs: z
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  /** Transports a URL may use; never ext:: or other command-running ones. */
  protocols: z
    .array(z.enum(["https", "ssh", "file", "http", "git"]))
    .min(1)
    .default([...DEFAULT_PROTOCOLS]),
  /**
   * false: an HTTP redirect from a remote fails the fetch, so git reaches only the host named
   * (add_skill sets it for callers over HTTP, whose hosts are checked). Narrows, so needs no trust.
   */
  followRedirects: z.boolean().default(true),
  /**
   * Connect to no loopback, link-local or private address but those of the hosts named: each fetch
   * resolves the remote's host once, checks it and pins git to that address (add_skill sets it for
   * callers over HTTP). Narrows, so needs no trust.
   */
  refusePrivateAddresses: refusePrivateAddressesSchema.optional(),
  /** Folder levels below the repository folder scanned for skills. */
  maxDepth: z.number().int().min(0).default(6),
  /** Tokens for private HTTPS hosts: `[user@]host[:port]` to the environment variable holding one (GITHUB_TOKEN or GH_TOKEN serve github.com unasked). */
  tokenEnv: z
    .record(z.string(), z.string())
    .default({})
    .superRefine((entries, check) => {
      for (const [key, variable] of Object.entries(entries)) {
        const problem = tokenEnvProblem(key, variable);
        if (problem) check.addIssue({ code: "custom", path: [key], message: problem });
      }
    }),
  ...remoteLimitsSchema,
});

/** Serves skills from git repositories, checked out shallow and sparse into the user's cache folder. */
export default remoteSource({
  name: "git",
  options: gitOptionsSchema,
  needsTrust: {
    options: { repositories: "they are cloned over the network", tokenEnv: "it sends environment variables to hosts" },
  },
  setup(ctx, options, remote) {
    const specs = options.repositories.map((entry) => {
      try {
        return typeof entry === "string" ? parseRepositorySpec(entry) : objectSpec(entry);
      } catch (error) {
        throw new PluginError(ctx.name, (error as Error).message, { exitCode: 2 });
      }
    });
    // Two branches of one repository (`--git o/r#main --git o/r#dev`) get -2, -3…, as fs does for folders.
    const names = remote.sourceNames(
      options.repositories.map((entry, index) => ({
        explicit: typeof entry === "object" ? entry.name : undefined,
        fallback: defaultSourceName(specs[index]!),
      })),
    );
    const { tokenEnv, ...settings } = options;
    for (const [index, spec] of specs.entries()) {
      const name = names[index]!;
      const credentials = spec.credentials ?? tokenCredentials(spec.url, tokenEnv);
      const entry = options.repositories[index];
      remote.add(
        createGitSource({
          ...settings,
          ...spec,
          ...(credentials && { credentials }),
          ...(remote.addressGuard && { addressGuard: remote.addressGuard }),
          name,
          checkouts: join(remote.cacheRoot, "git"),
          cache: remote.cache(name),
          logger: ctx.logger,
          inProcessOnly: ctx.inProcessOnly ?? false,
        }),
        typeof entry === "object" ? entry.visibleTo : undefined,
      );
    }
  },
});

/** `{ url, ref, path }`: the same rules as the short form; ref and path beat any in the URL. */
function objectSpec(entry: { url: string; ref?: string; path?: string }): RepositorySpec {
  const spec = parseRepositorySpec(entry.url);
  const shown = redactCredentials(entry.url);
  return {
    ...spec,
    ref: entry.ref === undefined ? spec.ref : checkRef(entry.ref, shown),
    path: entry.path === undefined ? spec.path : checkFolder(entry.path, shown),
  };
}
