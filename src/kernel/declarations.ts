import { ERROR_CODES, PluginError } from "./errors.js";
import { tokenName, type Token } from "./tokens.js";
import type { Plugin } from "./types.js";
import { TOKENS } from "../tokens.js";

/**
 * What only the kernel collects (tools, server extensions, instructions, transports): no plugin
 * is ordered by them, so listing them in `provides` or `consumes` would order nothing.
 */
export const KERNEL_COLLECTED: ReadonlySet<Token<unknown>> = new Set([
  TOKENS.Tool,
  TOKENS.ServerExtension,
  TOKENS.Instructions,
  TOKENS.Transport,
]);

/**
 * The kernel orders plugins by what they declare in `provides` and `consumes`, so what a plugin
 * does at run time must match: a registration or a resolve of an undeclared token is refused,
 * naming the plugin, the token and who declares it, whatever order the config lists them in.
 */
export class Declarations {
  readonly #providers = new Map<Token<unknown>, string[]>();
  /** Services the kernel itself gives every plugin (its logger): resolved without declaring. */
  readonly #kernelServices: ReadonlySet<Token<unknown>>;

  constructor(plugins: readonly Plugin<any>[], kernelServices: ReadonlySet<Token<unknown>>) {
    this.#kernelServices = kernelServices;
    for (const plugin of plugins) {
      for (const token of plugin.provides ?? [])
        this.#providers.set(token, [...(this.#providers.get(token) ?? []), plugin.name]);
    }
  }

  checkProvide(plugin: Plugin<any>, token: Token<unknown>): void {
    if (KERNEL_COLLECTED.has(token) || (plugin.provides ?? []).includes(token)) return;
    throw new PluginError(
      plugin.name,
      `registered "${tokenName(token)}" without declaring it in provides; add it to provides`,
      {
        code: ERROR_CODES.SERVICE_UNDECLARED,
      },
    );
  }

  /** `inSetup`: the plugin's setup is running, when a service declared `fromStart` is not yet its to use. */
  checkResolve(plugin: Plugin<any>, token: Token<unknown>, inSetup: boolean): void {
    if (KERNEL_COLLECTED.has(token) || this.#kernelServices.has(token) || (plugin.provides ?? []).includes(token))
      return;
    const ref = (plugin.consumes ?? []).find((ref) => (typeof ref === "symbol" ? ref : ref.token) === token);
    if (ref !== undefined && inSetup && typeof ref !== "symbol" && ref.fromStart === true) {
      throw new PluginError(
        plugin.name,
        `resolved "${tokenName(token)}" in setup, but consumes declares it fromStart; resolve it from start`,
        {
          code: ERROR_CODES.SERVICE_UNDECLARED,
        },
      );
    }
    if (ref !== undefined) return;
    const others = (this.#providers.get(token) ?? []).filter((name) => name !== plugin.name);
    const who =
      others.length === 0
        ? "no plugin in this config provides it"
        : `${others.length === 1 ? "plugin" : "plugins"} ${others.map((name) => `"${name}"`).join(", ")} ${others.length === 1 ? "provides" : "provide"} it`;
    throw new PluginError(plugin.name, `resolved "${tokenName(token)}" without declaring it in consumes; ${who}`, {
      code: ERROR_CODES.SERVICE_UNDECLARED,
    });
  }
}
