import { resolve } from "node:path";
import { ConfigError } from "../kernel/errors.js";
import type { ResolvedPluginEntry } from "../kernel/config.js";
import { builtinPlugins } from "../plugins/index.js";
import { TOKENS } from "../tokens.js";

/** The sources named on the command line: `--skills-dir`, `--git`, `--catalog`, `--skills-archive`. */
export interface ExplicitSources {
  readonly skillsDirs: readonly string[];
  readonly git: readonly string[];
  readonly catalogs: readonly string[];
  readonly archives: readonly string[];
}

/**
 * A `--skills-dir` that is a repository URL, not a folder (`https://github.com/o/r`): served as
 * `--git`, instead of telling the user a folder of that name does not exist.
 */
export function splitSkillsDirs(dirs: readonly string[]): { dirs: string[]; git: string[] } {
  const repository = /^(?:https?|ssh|git|file):\/\/|^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:/;
  return { dirs: dirs.filter((dir) => !repository.test(dir)), git: dirs.filter((dir) => repository.test(dir)) };
}

export function hasExplicitSources(sources: ExplicitSources): boolean {
  return sources.skillsDirs.length + sources.git.length + sources.catalogs.length + sources.archives.length > 0;
}

/**
 * With any source flag, exactly the sources named are served: the fs, git, http-catalog and
 * archive plugins get them (keeping the config's other options for those plugins, such as limits and
 * cache folders), and every other plugin that provides skill sources is left out.
 */
export function serveExactly(sources: ExplicitSources, cwd: string) {
  return async (plugins: ResolvedPluginEntry[]): Promise<ResolvedPluginEntry[]> => {
    const wanted: [string, string, unknown][] = [];
    if (sources.skillsDirs.length > 0)
      wanted.push(["fs", "roots", sources.skillsDirs.map((dir) => ({ path: resolve(cwd, dir) }))]);
    if (sources.git.length > 0) wanted.push(["git", "repositories", [...sources.git]]);
    if (sources.catalogs.length > 0) wanted.push(["http-catalog", "catalogs", [...sources.catalogs]]);
    // A file is named relative to where the command runs, as --skills-dir is.
    if (sources.archives.length > 0)
      wanted.push([
        "archive",
        "archives",
        sources.archives.map((archive) => (/^https?:\/\//i.test(archive) ? archive : resolve(cwd, archive))),
      ]);
    const kept = plugins.filter(
      (entry) =>
        !entry.plugin.provides?.includes(TOKENS.CatalogSource) || wanted.some(([name]) => name === entry.plugin.name),
    );
    const added: ResolvedPluginEntry[] = [];
    for (const [name, key, value] of wanted) {
      const index = kept.findIndex((entry) => entry.plugin.name === name);
      if (index === -1) {
        const load = builtinPlugins[name];
        if (!load) throw new ConfigError(`the ${name} plugin is not built in`);
        added.push({ plugin: await load(), options: { [key]: value }, origin: `--${name}` });
        continue;
      }
      const entry = kept[index]!;
      const options = typeof entry.options === "object" && entry.options !== null ? entry.options : {};
      kept[index] = { ...entry, options: { ...options, [key]: value } };
    }
    return [...added, ...kept];
  };
}
