import { ConfigError } from "./errors.js";

interface Named {
  readonly plugin: { readonly name: string; readonly dependsOn?: readonly string[] };
}

/**
 * Order plugins so each comes after everything it depends on, keeping config order wherever the
 * dependencies allow it (so the config stays the tie-breaker, e.g. for source precedence).
 * A missing or cyclic dependency fails the boot, naming the plugins involved.
 */
export function orderPlugins<T extends Named>(entries: readonly T[], source: string): T[] {
  const byName = new Map(entries.map((entry) => [entry.plugin.name, entry]));
  for (const { plugin } of entries) {
    for (const dependency of plugin.dependsOn ?? []) {
      if (!byName.has(dependency)) {
        throw new ConfigError(
          `${source}: plugin "${plugin.name}" depends on "${dependency}", which is not in the config; add it to plugins`,
        );
      }
    }
  }

  const ordered: T[] = [];
  const placed = new Set<string>();
  const remaining = [...entries];
  while (remaining.length > 0) {
    const index = remaining.findIndex(({ plugin }) => (plugin.dependsOn ?? []).every((d) => placed.has(d)));
    if (index === -1) {
      throw new ConfigError(`${source}: plugins depend on each other in a cycle: ${describeCycle(remaining)}`);
    }
    const [next] = remaining.splice(index, 1);
    ordered.push(next!);
    placed.add(next!.plugin.name);
  }
  return ordered;
}

/** Walk dependencies from an unplaceable plugin until a name repeats: that loop is the cycle. */
function describeCycle(stuck: readonly Named[]): string {
  const byName = new Map(stuck.map((entry) => [entry.plugin.name, entry.plugin]));
  const path: string[] = [];
  let current = stuck[0]!.plugin;
  while (!path.includes(current.name)) {
    path.push(current.name);
    const next = (current.dependsOn ?? []).find((d) => byName.has(d));
    current = byName.get(next!)!;
  }
  return [...path.slice(path.indexOf(current.name)), current.name].join(" -> ");
}
