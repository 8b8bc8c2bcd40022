declare const carries: unique symbol;

/**
 * A service name that carries the type of what it names. It is a `Symbol.for` key, not a plain
 * symbol, so a plugin built against its own copy of skills-kernel (an npm plugin with a nested
 * install, or the CLI's bundle next to a config's import) still names the kernel's services.
 */
export type Token<T> = symbol & { readonly [carries]?: T };

/** Make a token; `name` must be unique across everything loaded into the process. */
export function defineToken<T>(name: string): Token<T> {
  return Symbol.for(`skills-kernel:${name}`) as Token<T>;
}

/** The name a token was made with, for messages. */
export function tokenName(token: Token<unknown>): string {
  return token.description?.replace(/^skills-kernel:/, "") ?? "?";
}
