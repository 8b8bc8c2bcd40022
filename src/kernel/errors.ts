/**
 * The kernel's error classes. A plugin published on npm may bundle its own copy of skills-kernel,
 * so `instanceof` cannot rely on class identity: each error carries its kinds under a
 * `Symbol.for` key, and `instanceof` checks for the kind instead (as the tokens do).
 */
const KINDS = Symbol.for("skills-kernel:error-kinds");

function hasKind(value: unknown, kind: string): boolean {
  const kinds = (value as { [KINDS]?: unknown } | null | undefined)?.[KINDS];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/** Every `kind` from the constructor up its class chain. */
function kindsOf(constructor: unknown): string[] {
  const kinds: string[] = [];
  for (let c = constructor as { kind?: unknown } | null; c && c !== Error; c = Object.getPrototypeOf(c)) {
    if (typeof c.kind === "string" && Object.hasOwn(c, "kind")) kinds.push(c.kind);
  }
  return kinds;
}

/**
 * Errors that are the user's to fix. The CLI prints their message as one line and exits with
 * `exitCode`; anything else is a bug and is reported with its stack at debug level.
 */
export class UserError extends Error {
  static readonly kind: string = "UserError";
  readonly [KINDS]: readonly string[];

  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    // new.target, unlike in a field initialiser, is the class actually constructed.
    this[KINDS] = kindsOf(new.target);
    this.name = (new.target as unknown as { kind: string }).kind;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.kind);
  }
}

/** A problem with the command line or the config: exit code 2. */
export class ConfigError extends UserError {
  static override readonly kind: string = "ConfigError";

  constructor(message: string) {
    super(message, 2);
  }
}

/** A plugin that could not be set up, started or wired. */
export class PluginError extends UserError {
  static override readonly kind: string = "PluginError";

  constructor(
    readonly plugin: string,
    message: string,
    exitCode: 1 | 2 = 1,
  ) {
    super(`plugin "${plugin}": ${message}`, exitCode);
  }
}

/** An error a tool returns to the agent as an isError result, without the server logging a bug. */
export class ToolInputError extends Error {
  static readonly kind: string = "ToolInputError";
  readonly [KINDS]: readonly string[];

  constructor(message: string) {
    super(message);
    this[KINDS] = kindsOf(new.target);
    this.name = (new.target as unknown as { kind: string }).kind;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.kind);
  }
}

/** A skill file a source refuses or cannot read; the message says why, for the agent. */
export class SkillFileError extends ToolInputError {
  static override readonly kind: string = "SkillFileError";

  constructor(
    readonly path: string,
    /** Why, without the path: per-file results carry the path beside it. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
