/**
 * Keys that reach an object's prototype chain when some later code merges, spreads or assigns
 * frontmatter into another object. Dropping them means a hostile SKILL.md cannot pollute
 * Object.prototype anywhere downstream, not only in this plugin.
 */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Aliases let a small document expand into a large tree. `yaml`'s maxAliasCount stops the
 * exponential cases; this is the backstop for what is left, far above any real frontmatter
 * (64 KiB of YAML holds fewer than 40,000 values without aliases).
 */
const MAX_VALUES = 100_000;

export interface PlainData {
  readonly value: unknown;
  /** Where each dropped key was, as a dotted path ("metadata.__proto__"). */
  readonly droppedKeys: readonly string[];
}

/**
 * Copies the output of `yaml`'s toJS (objects, arrays and scalars) into a tree of null-prototype
 * objects and arrays. Shared aliases become separate copies so consumers get a plain tree they can
 * serialize; a recursive alias (`&a [*a]`) has no tree form and is refused.
 */
export function toPlainData(input: unknown): PlainData {
  const droppedKeys: string[] = [];
  const ancestors = new Set<object>();
  let values = 0;

  const copy = (value: unknown, at: string): unknown => {
    if (++values > MAX_VALUES) throw new Error(`more than ${MAX_VALUES} values once aliases are expanded`);
    if (value === null || typeof value !== "object") return value;
    if (ancestors.has(value)) throw new Error(`recursive alias at ${at || "the top level"}`);
    ancestors.add(value);
    try {
      if (Array.isArray(value)) return value.map((item, index) => copy(item, `${at}[${index}]`));
      const out: Record<string, unknown> = Object.create(null);
      for (const [key, item] of Object.entries(value)) {
        const where = at === "" ? key : `${at}.${key}`;
        if (UNSAFE_KEYS.has(key)) droppedKeys.push(where);
        else out[key] = copy(item, where);
      }
      return out;
    } finally {
      ancestors.delete(value);
    }
  };

  return { value: copy(input, ""), droppedKeys };
}
