/**
 * A source name not yet taken: `base`, else `base-2`, `base-3`… Sources named after a folder or a
 * host (two `skills` folders, two catalogs on one host) stay apart instead of clashing.
 */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let suffix = 2;
  while (taken.has(`${base}-${suffix}`)) suffix++;
  return `${base}-${suffix}`;
}

/**
 * Each source's name: an explicit one as given (two alike are the caller's error to report), a
 * default one made unique past every name taken, explicit names first so they always win.
 */
export function sourceNames(entries: readonly { readonly explicit?: string; readonly fallback: string }[]): string[] {
  const taken = new Set(entries.flatMap((entry) => (entry.explicit === undefined ? [] : [entry.explicit])));
  return entries.map((entry) => {
    if (entry.explicit !== undefined) return entry.explicit;
    const name = uniqueName(entry.fallback, taken);
    taken.add(name);
    return name;
  });
}
