import { refToken } from "./declarations.js";
import { ConfigError, ERROR_CODES } from "./errors.js";
import { tokenName } from "./tokens.js";
import type { Plugin, ServiceRef } from "./types.js";

interface Named {
  readonly plugin: Pick<Plugin<any>, "name" | "dependsOn" | "provides" | "consumes">;
}

function isOptional(ref: ServiceRef): boolean {
  return "token" in ref && ref.optional === true;
}

/**
 * Order plugins so each comes after everything it depends on: the plugins it names in
 * `dependsOn`, and every plugin that provides a service it consumes. Config order is kept
 * wherever the dependencies allow it (so the config stays the tie-breaker, e.g. for source
 * precedence). A missing dependency, a required service no plugin provides, or a cycle fails the
 * boot, naming the plugins involved. `kernelServices` are provided by the kernel itself.
 */
export function orderPlugins<T extends Named>(
  entries: readonly T[],
  source: string,
  kernelServices: ReadonlySet<symbol> = new Set(),
): T[] {
  const after = pluginNeeds(entries, source, kernelServices);
  const ordered: T[] = [];
  const placed = new Set<string>();
  const remaining = [...entries];
  while (remaining.length > 0) {
    const index = remaining.findIndex(({ plugin }) => [...after.get(plugin.name)!].every((d) => placed.has(d)));
    if (index === -1) {
      throw new ConfigError(
        `${source}: plugins depend on each other in a cycle: ${describeCycle(remaining, after)}`,
        ERROR_CODES.DEPENDENCY_CYCLE,
      );
    }
    const [next] = remaining.splice(index, 1);
    ordered.push(next!);
    placed.add(next!.plugin.name);
  }
  return ordered;
}

/**
 * For each plugin, the plugins that must be set up before it: those it names in `dependsOn` and
 * those that provide a service it consumes. Throws for a missing name or required service.
 */
export function pluginNeeds(
  entries: readonly Named[],
  source: string,
  kernelServices: ReadonlySet<symbol> = new Set(),
): Map<string, Set<string>> {
  const byName = new Map(entries.map((entry) => [entry.plugin.name, entry]));
  const providers = new Map<symbol, string[]>();
  for (const { plugin } of entries) {
    for (const { key } of plugin.provides ?? []) providers.set(key, [...(providers.get(key) ?? []), plugin.name]);
  }

  const after = new Map<string, Set<string>>();
  for (const { plugin } of entries) {
    const needs = new Set<string>();
    for (const dependency of plugin.dependsOn ?? []) {
      if (!byName.has(dependency)) {
        throw new ConfigError(
          `${source}: plugin "${plugin.name}" depends on "${dependency}", which is not in the config; add it to plugins`,
          ERROR_CODES.DEPENDENCY_MISSING,
        );
      }
      needs.add(dependency);
    }
    for (const ref of plugin.consumes ?? []) {
      const token = refToken(ref);
      const from = (providers.get(token.key) ?? []).filter((name) => name !== plugin.name);
      if (
        from.length === 0 &&
        !isOptional(ref) &&
        !kernelServices.has(token.key) &&
        !(plugin.provides ?? []).some((own) => own.key === token.key)
      ) {
        throw new ConfigError(
          `${source}: plugin "${plugin.name}" needs service "${tokenName(token)}", which no plugin in this config provides; ` +
            `add a plugin that provides it`,
          ERROR_CODES.SERVICE_MISSING,
        );
      }
      if (!("token" in ref) || ref.fromStart !== true) for (const name of from) needs.add(name);
    }
    after.set(plugin.name, needs);
  }
  return after;
}

/** Walk dependencies from an unplaceable plugin until a name repeats: that loop is the cycle. */
function describeCycle(stuck: readonly Named[], after: ReadonlyMap<string, ReadonlySet<string>>): string {
  const names = new Set(stuck.map((entry) => entry.plugin.name));
  const path: string[] = [];
  let current = stuck[0]!.plugin.name;
  while (!path.includes(current)) {
    path.push(current);
    current = [...after.get(current)!].find((d) => names.has(d))!;
  }
  return [...path.slice(path.indexOf(current)), current].join(" -> ");
}
