import { basename, resolve } from "node:path";
import { expandHome } from "../../../skills/files/paths.js";
import { uniqueName } from "../../../skills/catalog/source-names.js";
import type { Visibility } from "../../../skills/catalog/visibility.js";

export type RootOption =
  | string
  | {
      readonly path: string;
      readonly source?: string;
      readonly optional?: boolean;
      readonly visibleTo?: Visibility;
      readonly followLinksOut?: boolean;
    };

export interface ResolvedRoot {
  /** Absolute. */
  readonly path: string;
  readonly optional: boolean;
  /** Symlinked skill folders are followed out of the source's roots. */
  readonly followLinksOut?: true;
  /** Who may see its skills; every root of one source says the same. */
  readonly visibleTo?: Visibility;
}

export interface SourceRoots {
  readonly source: string;
  /** In the order configured: the first root wins a name clash. */
  readonly roots: readonly ResolvedRoot[];
}

/**
 * Resolves root paths (relative to `baseDir`, `~` to `home`) and groups them by source, sources in
 * order of first mention. A root without a `source` is named after its folder; names taken by an
 * explicit `source` or an earlier root get -2, -3..., so two unrelated `skills` folders never merge
 * by accident. Roots that should merge say so with the same `source`.
 */
export function groupRoots(roots: readonly RootOption[], baseDir: string, home: string): SourceRoots[] {
  const entries = roots.map((root) => (typeof root === "string" ? { path: root } : root));
  const taken = new Set(entries.flatMap((entry) => (entry.source === undefined ? [] : [entry.source])));
  const groups = new Map<string, ResolvedRoot[]>();
  for (const entry of entries) {
    const path = resolve(baseDir, expandHome(entry.path, home));
    let source = entry.source;
    if (source === undefined) {
      // The filesystem root has no basename.
      source = uniqueName(basename(path) || "fs", taken);
      taken.add(source);
    }
    const group = groups.get(source) ?? [];
    group.push({
      path,
      optional: entry.optional ?? false,
      ...(entry.followLinksOut && { followLinksOut: true as const }),
      ...(entry.visibleTo && { visibleTo: entry.visibleTo }),
    });
    groups.set(source, group);
  }
  return [...groups].map(([source, roots]) => ({ source, roots }));
}
