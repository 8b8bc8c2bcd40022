/**
 * Errors that are the user's to fix. The CLI prints their message as one line and exits with
 * `exitCode`; anything else is a bug and is reported with its stack at debug level.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A problem with the command line or the config: exit code 2. */
export class ConfigError extends UserError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A plugin that could not be set up, started or wired. */
export class PluginError extends UserError {
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
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A skill file a source refuses or cannot read; the message says why, for the agent. */
export class SkillFileError extends ToolInputError {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "SkillFileError";
  }
}
