import { errorMessage } from "../kernel/errors.js";
import type { Logger } from "../kernel/logger.js";
import type { CatalogSkill } from "../skills/catalog/catalog-types.js";
import type { CatalogView } from "../skills/catalog/catalog-view.js";

/**
 * Asks every source that searches itself (a registry) for `query`, waits for the catalog to take
 * in the skills they found, and returns those skills as the catalog has them, best first per source.
 * A source that fails costs its own answers only: search goes on with the rest.
 */
export async function searchRemoteSources(
  catalog: CatalogView,
  query: string,
  options: { readonly limit: number; readonly source?: string; readonly signal?: AbortSignal },
  logger: Logger,
): Promise<CatalogSkill[]> {
  const searching = catalog.sources.filter(
    (source) => source.search && (options.source === undefined || source.name === options.source),
  );
  if (searching.length === 0) return [];
  const answers = await Promise.all(
    searching.map(async (source) => {
      try {
        return {
          source: source.name,
          skills: await source.search!(query, { limit: options.limit, signal: options.signal }),
        };
      } catch (error) {
        logger.warn(`source "${source.name}" could not search: ${errorMessage(error)}`);
        return { source: source.name, skills: [] };
      }
    }),
  );
  const find = (source: string, path: string) =>
    catalog.list().find((skill) => skill.source === source && skill.path === path);
  const stale = answers
    .filter(({ source, skills }) => skills.some((skill) => !find(source, skill.path)))
    .map(({ source }) => source);
  if (stale.length > 0) await catalog.refresh(stale);
  return answers.flatMap(({ source, skills }) => skills.flatMap((skill) => find(source, skill.path) ?? []));
}
