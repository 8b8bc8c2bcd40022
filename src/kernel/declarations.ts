import { ConfigError, ERROR_CODES, PluginError } from "./errors.js";
import { tokenName, type Token } from "./tokens.js";
import type { Plugin, ServiceRef } from "./types.js";
import { TOKENS } from "../tokens.js";
import { INTERNAL_TOKENS } from "../internal-tokens.js";

/**
 * What only the kernel collects (tools, server extensions, instructions, transports): no plugin
 * is ordered by them, so listing them in `provides` or `consumes` would order nothing.
 */
export const KERNEL_COLLECTED: ReadonlySet<symbol> = new Set(
  [TOKENS.Tool, TOKENS.ServerExtension, TOKENS.Instructions, TOKENS.Transport].map((token) => token.key),
);

export function refToken(ref: ServiceRef): Token<unknown> {
  return "token" in ref ? ref.token : ref;
}

/**
 * The kernel orders plugins by what they declare in `provides` and `consumes`, so what a plugin
 * does at run time must match: a registration or a resolve of an undeclared token is refused,
 * naming the plugin, the token and who declares it, whatever order the config lists them in.
 *
 * How a token is treated (made per consumer, holding the whole catalog) is read from every copy
 * of it the kernel sees, its own tokens first: a plugin cannot shed a trait by making a token of
 * the same name without it.
 */
export class Declarations {
  readonly #providers = new Map<symbol, string[]>();
  /** Services the kernel itself gives every plugin (its logger): resolved without declaring. */
  readonly #kernelServices: ReadonlySet<symbol>;
  /** Keys of tokens made per consumer. */
  readonly #perConsumer = new Set<symbol>();
  /** Keys of tokens that hold every source's skills. */
  readonly #wholeCatalog = new Set<symbol>();

  constructor(
    plugins: readonly Plugin<any>[],
    kernelServices: ReadonlySet<symbol>,
    kernelConsumes: readonly ServiceRef[] = [],
  ) {
    this.#kernelServices = kernelServices;
    const seen = [
      ...Object.values(TOKENS),
      ...Object.values(INTERNAL_TOKENS),
      ...kernelConsumes.map(refToken),
      ...plugins.flatMap((plugin) => [...(plugin.provides ?? []), ...(plugin.consumes ?? []).map(refToken)]),
    ];
    for (const token of seen) {
      if (token.scope === "plugin") this.#perConsumer.add(token.key);
      if (token.wholeCatalog) this.#wholeCatalog.add(token.key);
    }
    for (const plugin of plugins) {
      for (const token of plugin.provides ?? [])
        this.#providers.set(token.key, [...(this.#providers.get(token.key) ?? []), plugin.name]);
    }
  }

  /**
   * Before any plugin runs: a plugin consuming a whole-catalog token without saying so is refused,
   * pointed at the caller's catalog its handlers get.
   */
  checkConsumes(plugins: readonly Plugin<any>[], source: string): void {
    for (const plugin of plugins) {
      for (const ref of plugin.consumes ?? []) {
        const token = refToken(ref);
        if (!this.#wholeCatalog.has(token.key) || ("token" in ref && ref.wholeCatalog === true)) continue;
        throw new ConfigError(
          `${source}: plugin "${plugin.name}" consumes ${wholeCatalogProblem(token)}`,
          ERROR_CODES.SERVICE_UNDECLARED,
        );
      }
    }
  }

  checkProvide(plugin: Plugin<any>, token: Token<unknown>): void {
    const declared = KERNEL_COLLECTED.has(token.key) || (plugin.provides ?? []).some((t) => t.key === token.key);
    if (!declared) {
      throw new PluginError(
        plugin.name,
        `registered "${tokenName(token)}" without declaring it in provides; add it to provides`,
        {
          code: ERROR_CODES.SERVICE_UNDECLARED,
        },
      );
    }
  }

  /** A token made per consumer is provided with provideScoped: with `provide`, consumers would share one. */
  checkScope(plugin: Plugin<any>, token: Token<unknown>): void {
    if (this.#perConsumer.has(token.key)) {
      throw new PluginError(
        plugin.name,
        `"${tokenName(token)}" is made for each consumer, so that none shares another's; ` +
          `provide it with ctx.provideScoped(token, ({ name }) => ...)`,
        { code: ERROR_CODES.PLUGIN_INVALID },
      );
    }
  }

  /** `inSetup`: the plugin's setup is running, when a service declared `fromStart` is not yet its to use. */
  checkResolve(plugin: Plugin<any>, token: Token<unknown>, inSetup: boolean): void {
    if (KERNEL_COLLECTED.has(token.key) || this.#kernelServices.has(token.key)) return;
    const ref = (plugin.consumes ?? []).find((ref) => refToken(ref).key === token.key);
    // What a plugin provides it may read back, unless that would hand it every source's skills.
    if (this.#wholeCatalog.has(token.key)) {
      if (ref === undefined || !("token" in ref) || ref.wholeCatalog !== true) {
        throw new PluginError(plugin.name, `resolved ${wholeCatalogProblem(token)}`, {
          code: ERROR_CODES.SERVICE_UNDECLARED,
        });
      }
    } else if ((plugin.provides ?? []).some((t) => t.key === token.key)) return;
    if (ref !== undefined && inSetup && "token" in ref && ref.fromStart === true) {
      throw new PluginError(
        plugin.name,
        `resolved "${tokenName(token)}" in setup, but consumes declares it fromStart; resolve it from start`,
        {
          code: ERROR_CODES.SERVICE_UNDECLARED,
        },
      );
    }
    if (ref !== undefined) return;
    const others = (this.#providers.get(token.key) ?? []).filter((name) => name !== plugin.name);
    const who =
      others.length === 0
        ? "no plugin in this config provides it"
        : `${others.length === 1 ? "plugin" : "plugins"} ${others.map((name) => `"${name}"`).join(", ")} ${others.length === 1 ? "provides" : "provide"} it`;
    throw new PluginError(plugin.name, `resolved "${tokenName(token)}" without declaring it in consumes; ${who}`, {
      code: ERROR_CODES.SERVICE_UNDECLARED,
    });
  }
}

/** Why a plain consumer of a whole-catalog token is refused, and what to use instead. */
function wholeCatalogProblem(token: Token<unknown>): string {
  return (
    `"${tokenName(token)}", which holds every source's skills, hidden ones too. A handler answering a caller ` +
    "reads `catalog` from its context, already that caller's view; to read the whole catalog on purpose " +
    "(loading, indexing or reporting on all of it), declare { token, wholeCatalog: true } in consumes"
  );
}
