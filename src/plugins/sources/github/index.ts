import { z } from "zod";
import { PluginError } from "../../../kernel/errors.js";
import { remoteSource } from "../../../kit/remote-source.js";
import type { Cache } from "../../../kernel/cache.js";
import type { Logger } from "../../../kernel/logger.js";
import { remoteLimitsSchema } from "../../../remote/options.js";
import { visibilitySchema } from "../../../skills/catalog/visibility.js";
import { defaultSourceName, parseRepositorySpec, type RepositorySpec } from "../../../remote/git/spec.js";
import { createGitHubClient } from "./client.js";
import { createGitHubSource } from "./source.js";

const repositorySchema = z.union([
  z.string().min(1),
  z.strictObject({
    /** owner/repo */
    repo: z.string().regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/, "owner/repo"),
    ref: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    /** Who sees this repository's skills (docs/security.md#per-team-visibility). */
    visibleTo: visibilitySchema.optional(),
  }),
]);

export const githubOptionsSchema = z.strictObject({
  /** Each repository is one source: `owner/repo[#REF][:PATH]`, or an object. */
  repositories: z.array(repositorySchema).min(1),
  /** A token for private repositories and the higher rate limit; $GITHUB_TOKEN, else $GH_TOKEN, by default. */
  token: z.string().min(1).optional(),
  /** The environment variable holding the token (GitHub Enterprise), so the config never holds it. */
  tokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
    .optional(),
  /** The REST API's base URL (GitHub Enterprise: https://HOST/api/v3). */
  apiBaseUrl: z.string().url().default("https://api.github.com"),
  /** Where raw file contents come from (GitHub Enterprise: https://HOST/raw). */
  rawBaseUrl: z.string().url().default("https://raw.githubusercontent.com"),
  /** How long a branch's commit is trusted before GitHub is asked again (with its ETag: a 304 is free). */
  refTtlMs: z
    .number()
    .int()
    .min(0)
    .default(5 * 60 * 1000),
  /** Folder levels below the repository folder searched for skills. */
  maxDepth: z.number().int().min(0).default(6),
  ...remoteLimitsSchema,
});

/** Serves skills from GitHub repositories through the REST API, for users without git. */
export default remoteSource({
  name: "github",
  options: githubOptionsSchema,
  needsTrust: {
    options: {
      repositories: "they are fetched over the network, with GITHUB_TOKEN when it is set",
      apiBaseUrl: "GITHUB_TOKEN is sent there",
      tokenEnv: "it sends an environment variable to the API",
      rawBaseUrl: "skill files are fetched from there",
    },
  },
  setup(ctx, options, remote) {
    const env = process.env;
    const token =
      options.token ?? ((options.tokenEnv ? env[options.tokenEnv] : env.GITHUB_TOKEN || env.GH_TOKEN) || undefined);
    for (const entry of options.repositories) {
      const spec = githubSpec(entry);
      const name = (typeof entry === "object" && entry.name) || defaultSourceName(spec);
      const source = createGitHubClientSource({
        ...options,
        token,
        name,
        spec,
        cache: remote.cache(name),
        logger: ctx.logger,
      });
      remote.add(source, typeof entry === "object" ? entry.visibleTo : undefined);
    }
  },
});

type GitHubOptions = z.infer<typeof githubOptionsSchema>;
type GitHubSpec = RepositorySpec & { github: NonNullable<RepositorySpec["github"]> };

function githubSpec(entry: string | { repo: string; ref?: string; path?: string }): GitHubSpec {
  const text =
    typeof entry === "string"
      ? entry
      : `${entry.repo}${entry.ref ? `#${entry.ref}` : ""}${entry.path ? `:${entry.path}` : ""}`;
  let spec: RepositorySpec;
  try {
    spec = parseRepositorySpec(text);
  } catch (error) {
    throw new PluginError("github", (error as Error).message, { exitCode: 2 });
  }
  if (!spec.github)
    throw new PluginError("github", `"${text}" is not a GitHub repository (owner/repo)`, { exitCode: 2 });
  return spec as GitHubSpec;
}

/** One repository's source with its own HTTP client and API state (its budget, its rate limit). */
function createGitHubClientSource(
  settings: GitHubOptions & {
    readonly name: string;
    readonly spec: GitHubSpec;
    readonly cache: Cache;
    readonly logger: Logger;
  },
) {
  const { api, http } = createGitHubClient(settings);
  return createGitHubSource({
    ...settings,
    owner: settings.spec.github.owner,
    repo: settings.spec.github.repo,
    ref: settings.spec.ref,
    path: settings.spec.path,
    api,
    http,
  });
}

// The registry source reads the GitHub repositories its search finds with the same client.
export { createGitHubClient } from "./client.js";
export { scanRepository } from "./repository.js";
export type { GitHubApi, GitHubTreeEntry } from "./api.js";
