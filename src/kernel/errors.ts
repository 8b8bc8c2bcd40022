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
 * Stable codes of the kernel's errors (docs/plugins.md lists them), in the manner of avvio's
 * `AVV_ERR_*`: match on `error.code`, never on the message.
 */
export const ERROR_CODES = {
  /** A command-line or config mistake with no more specific code. */
  CONFIG: "SK_ERR_CONFIG",
  /** A plugin's options do not match its schema. */
  PLUGIN_OPTIONS: "SK_ERR_PLUGIN_OPTIONS",
  /** Something that is not a valid plugin object (a hook that is not a function, no name...). */
  PLUGIN_INVALID: "SK_ERR_PLUGIN_INVALID",
  /** A plugin declares kernel versions that exclude this kernel. */
  PLUGIN_INCOMPATIBLE: "SK_ERR_PLUGIN_INCOMPATIBLE",
  /** `dependsOn` names a plugin that is not in the config. */
  DEPENDENCY_MISSING: "SK_ERR_DEPENDENCY_MISSING",
  /** Plugins depend on each other (by name or by service) in a cycle. */
  DEPENDENCY_CYCLE: "SK_ERR_DEPENDENCY_CYCLE",
  /** A plugin consumes a required service that no plugin provides. */
  SERVICE_MISSING: "SK_ERR_SERVICE_MISSING",
  /**
   * A plugin registered a service it does not list in `provides`, or resolved one it does not list
   * in `consumes`: what a plugin declares is what the kernel orders it by, so the two must agree.
   */
  SERVICE_UNDECLARED: "SK_ERR_SERVICE_UNDECLARED",
  /** Two plugins provide the same service. */
  SERVICE_CONFLICT: "SK_ERR_SERVICE_CONFLICT",
  /** A plugin registered something outside setup. */
  LATE_REGISTRATION: "SK_ERR_LATE_REGISTRATION",
  /** A plugin's hook threw (the cause is kept). */
  PLUGIN_FAILED: "SK_ERR_PLUGIN_FAILED",
  /** A plugin's hook did not settle within its timeout. */
  PLUGIN_TIMEOUT: "SK_ERR_PLUGIN_TIMEOUT",
  /** A kernel method called in the wrong state: serve twice, serve after close. */
  LIFECYCLE: "SK_ERR_LIFECYCLE",
  /** `serve` named a transport no plugin contributes. */
  UNKNOWN_TRANSPORT: "SK_ERR_UNKNOWN_TRANSPORT",
  /** The HTTP port asked for is taken by another program. */
  PORT_IN_USE: "SK_ERR_PORT_IN_USE",
  /** A skill archive that is refused: a path out of the folder, a link, over a limit, no SKILL.md at its root. */
  ARCHIVE_REFUSED: "SK_ERR_ARCHIVE_REFUSED",
  /** Bytes fetched for a skill that do not match the digest its index gave. */
  DIGEST_MISMATCH: "SK_ERR_DIGEST_MISMATCH",
} as const;

/** One of the {@link ERROR_CODES} values, as an error's `code` carries it. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** How a UserError is made beyond its message and exit code. */
export interface UserErrorOptions {
  /** The stable code callers match on; none when no code fits. */
  readonly code?: ErrorCode;
  /** The error that led to this one, kept as `error.cause` for the debug log. */
  readonly cause?: unknown;
}

/** How a PluginError is made: its code, its cause, and the exit code when not its cause's. */
export interface PluginErrorOptions extends UserErrorOptions {
  /** The CLI's exit code: 2 for a usage or config mistake, 1 otherwise (default: the cause's, else 1). */
  readonly exitCode?: 1 | 2;
}

/**
 * Errors that are the user's to fix. The CLI prints their message as one line and exits with
 * `exitCode`; anything else is a bug and is reported with its stack at debug level.
 */
export class UserError extends Error {
  /** The name this class is known by to `instanceof` and in `error.name`; each subclass sets its own. */
  static readonly kind: string = "UserError";
  /** The kinds of this error's class chain, under a `Symbol.for` key, that `instanceof` checks across copies of the kernel. */
  readonly [KINDS]: readonly string[];
  /** The stable code to match on (docs/plugins.md lists them); never match on the message. */
  readonly code?: ErrorCode;

  constructor(
    message: string,
    /** The CLI's exit code: 2 for a usage or config mistake, 1 otherwise. */
    readonly exitCode: 1 | 2 = 1,
    options: UserErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // new.target, unlike in a field initialiser, is the class actually constructed.
    this[KINDS] = kindsOf(new.target);
    this.name = (new.target as unknown as { kind: string }).kind;
    this.code = options.code;
  }

  /** True when `value` carries this class's kind, even if made by another copy of skills-kernel. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.kind);
  }
}

/** A problem with the command line or the config: exit code 2. */
export class ConfigError extends UserError {
  /** The name this class is known by to `instanceof` and in `error.name`. */
  static override readonly kind: string = "ConfigError";

  constructor(message: string, code: ErrorCode = ERROR_CODES.CONFIG) {
    super(message, 2, { code });
  }
}

/**
 * A plugin that could not be set up, started or wired. When its cause is not a UserError, the
 * plugin has a bug: `bug` is true, the CLI exits 1 and shows the cause's stack at debug level.
 * A cause that is the user's to fix (a ConfigError thrown by the plugin) keeps its exit code.
 */
export class PluginError extends UserError {
  /** The name this class is known by to `instanceof` and in `error.name`. */
  static override readonly kind: string = "PluginError";
  /** True when the cause is not the user's to fix: the plugin has a bug, and its stack is logged at debug. */
  readonly bug: boolean;

  constructor(
    /** The name of the plugin that failed. */
    readonly plugin: string,
    message: string,
    options: PluginErrorOptions = {},
  ) {
    // A plugin written for the positional form (`new PluginError(name, message, 2)`) would lose its
    // exit code without a word; refusing it says what to write instead.
    if (typeof options !== "object" || options === null) {
      throw new TypeError(
        `PluginError takes { code?, exitCode?, cause? } as its third argument, not ${JSON.stringify(options)}`,
      );
    }
    const cause = options.cause;
    const userCause = cause instanceof UserError ? cause : undefined;
    super(`plugin "${plugin}": ${message}`, options.exitCode ?? userCause?.exitCode ?? 1, options);
    this.bug = cause !== undefined && userCause === undefined && options.code !== ERROR_CODES.PLUGIN_TIMEOUT;
  }
}

/** A kernel used out of order by the app embedding it: serve twice, serve after close. */
export class LifecycleError extends UserError {
  /** The name this class is known by to `instanceof` and in `error.name`. */
  static override readonly kind: string = "LifecycleError";

  constructor(message: string) {
    super(message, 1, { code: ERROR_CODES.LIFECYCLE });
  }
}

/** An error a tool returns to the agent as an isError result, without the server logging a bug. */
export class ToolInputError extends Error {
  /** The name this class is known by to `instanceof` and in `error.name`. */
  static readonly kind: string = "ToolInputError";
  /** The kinds of this error's class chain, under a `Symbol.for` key, that `instanceof` checks across copies of the kernel. */
  readonly [KINDS]: readonly string[];

  constructor(message: string) {
    super(message);
    this[KINDS] = kindsOf(new.target);
    this.name = (new.target as unknown as { kind: string }).kind;
  }

  /** True when `value` carries this class's kind, even if made by another copy of skills-kernel. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.kind);
  }
}

/** A skill file a source refuses or cannot read; the message says why, for the agent. */
export class SkillFileError extends ToolInputError {
  /** The name this class is known by to `instanceof` and in `error.name`. */
  static override readonly kind: string = "SkillFileError";

  constructor(
    /** The file refused or unreadable, as the request named it. */
    readonly path: string,
    /** Why, without the path: per-file results carry the path beside it. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** The stack of an error and of each error in its cause chain, for debug logs. */
export function describeChain(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 8; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join("\ncaused by: ");
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
