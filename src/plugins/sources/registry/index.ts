import { z } from "zod";
import { remoteSource } from "../../../kit/remote-source.js";
import { RemoteDocuments } from "../../../remote/documents.js";
import { remoteLimitsSchema } from "../../../remote/options.js";
import { createGitHubClient } from "../github/index.js";
import { createRegistrySource } from "./source.js";

export const registryOptionsSchema = z.strictObject({
  /** The source's name. */
  name: z.string().min(1).default("registry"),
  /** The registry's search endpoint: GET ?q=QUERY&limit=N answers { skills: [{ id: "owner/repo/skill" }] }. */
  searchUrl: z.string().url().default("https://skills.sh/api/search"),
  /** How long one query's answer is reused. */
  searchTtlMs: z
    .number()
    .int()
    .min(0)
    .default(60 * 60 * 1000),
  /** Where the skills' content comes from. */
  github: z
    .strictObject({
      token: z.string().min(1).optional(),
      apiBaseUrl: z.string().url().default("https://api.github.com"),
      rawBaseUrl: z.string().url().default("https://raw.githubusercontent.com"),
      refTtlMs: z
        .number()
        .int()
        .min(0)
        .default(60 * 60 * 1000),
    })
    .prefault({}),
  ...remoteLimitsSchema,
  /** Skills found through searches that stay listed; the oldest go first. */
  maxSkills: z.number().int().min(1).default(500),
});

/**
 * Serves skills found by a skills registry's search (skills.sh by default), read from GitHub.
 * search_skills asks the registry and merges its answers with the local ranking.
 */
export default remoteSource({
  name: "registry",
  options: registryOptionsSchema,
  needsTrust: { plugin: "it sends queries to a search API and fetches from GitHub, with GITHUB_TOKEN when it is set" },
  setup(ctx, options, remote) {
    const cache = remote.cache(options.name);
    const http = remote.http({ name: options.name, headers: { accept: "application/json" } });
    const { api } = createGitHubClient({
      ...options,
      ...options.github,
      token: options.github.token ?? (process.env.GITHUB_TOKEN || undefined),
      name: `${options.name} (GitHub)`,
      cache: cache.scope("github"),
      logger: ctx.logger,
    });
    remote.add(
      createRegistrySource({
        ...options,
        http,
        documents: new RemoteDocuments(http, cache.scope("search")),
        github: api,
        cache,
        logger: ctx.logger,
      }),
    );
  },
});
