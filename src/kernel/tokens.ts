declare const carries: unique symbol;

/**
 * A token's default: a function giving the plugin to boot (a lazy import, so that it loads only
 * when needed). Typed as any object, checked when booted (it must provide the token): a token then
 * names no plugin type, and tokens from two copies of skills-kernel stay interchangeable.
 */
export type TokenDefault = () => object | Promise<object>;

/**
 * A service name that carries the type of what it names and how the kernel treats it (Backstage's
 * service refs). Tokens are told apart by `key`, a `Symbol.for` key, not by object identity, so a
 * plugin built against its own copy of skills-kernel (an npm plugin with a nested install, or the
 * CLI's bundle next to a config's import) still names the kernel's services.
 */
export interface Token<T> {
  /** `Symbol.for("skills-kernel:<name>")`: the same in every copy of skills-kernel. */
  readonly key: symbol;
  /** The name it was made with, for messages. */
  readonly name: string;
  /**
   * `"plugin"`: each consuming plugin gets an instance of its own (its logger, its cache namespace,
   * its ranker), so it must be provided with `provideScoped`. `"kernel"`: one for every consumer.
   */
  readonly scope: "kernel" | "plugin";
  /**
   * The plugin the kernel boots, once, when some plugin consumes this token and none in the config
   * provides it (cache-memory for the cache, ranker-bm25 for the ranker): every consumer, required
   * or optional, gets the same.
   */
  readonly default?: TokenDefault;
  /**
   * What it holds is every source's skills, hidden ones too (the whole catalog, the sources, who
   * may see them): a plugin consuming it says so with `{ token, wholeCatalog: true }`, and a plain
   * consumer fails to boot, pointed at the `catalog` its handlers get, already scoped to the caller.
   */
  readonly wholeCatalog: boolean;
  /** Type-only: the type of what the token names (no value has it). */
  readonly [carries]?: T;
}

/** How a token is treated beyond its name; see Token. */
export interface TokenTraits {
  /** `"plugin"`: each consumer gets its own, provided with `provideScoped`. Default `"kernel"`. */
  readonly scope?: "kernel" | "plugin";
  /** The plugin booted when some plugin consumes the token and none in the config provides it. */
  readonly default?: TokenDefault;
  /** It holds every source's skills, hidden ones too: consumers declare `{ token, wholeCatalog: true }`. */
  readonly wholeCatalog?: boolean;
}

/** Make a token; `name` must be unique across everything loaded into the process. */
export function defineToken<T>(name: string, traits: TokenTraits = {}): Token<T> {
  return Object.freeze({
    key: Symbol.for(`skills-kernel:${name}`),
    name,
    scope: traits.scope ?? "kernel",
    ...(traits.default && { default: traits.default }),
    wholeCatalog: traits.wholeCatalog ?? false,
  });
}

/** Whether `value` is a token (of any copy of skills-kernel). */
export function isToken(value: unknown): value is Token<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { key?: unknown }).key === "symbol" &&
    typeof (value as { name?: unknown }).name === "string"
  );
}

/** The name a token was made with, for messages. */
export function tokenName(token: Token<unknown>): string {
  return token.name;
}
