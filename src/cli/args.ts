import { parseArgs } from "node:util";
import { ConfigError } from "../kernel/errors.js";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "../kernel/logger.js";
import { LIST_FORMATS, type ListFormat } from "../plugins/list-skills/format.js";

export const COMMANDS = ["serve", "list"] as const;
export type Command = (typeof COMMANDS)[number];

export interface CliArgs {
  readonly command: Command;
  readonly help: boolean;
  readonly version: boolean;
  readonly configPath?: string;
  readonly transport?: string;
  readonly skillsDirs: readonly string[];
  readonly logLevel?: LogLevel;
  readonly format: ListFormat;
}

export const HELP = `skills-kernel: serve Agent Skills to AI agents over MCP

Usage:
  skills-kernel [serve] [options]      run the MCP server (stdio by default)
  skills-kernel list [options]         print the skills the server would serve

Options:
  --config FILE          config file (default: plugins.config.ts, .skills-kernelrc,
                         or a "skills-kernel" key in package.json, searched from here
                         up to the project root; without one, the embedded default)
  --skills-dir DIR       serve exactly this folder of skills (repeatable)
  --transport NAME       transport to serve on (default: stdio)
  --format FORMAT        list output: names-only (default), json or full
  --log-level LEVEL      ${LOG_LEVELS.join(", ")} (default: info; warn for list)
  -h, --help             show this help
  -v, --version          print the version

Without a config, the server serves .claude/skills and .agents/skills under the
working directory (project) and under your home folder (user); a project skill
wins over a user skill of the same name.

Exit codes: 0 success, 1 the operation failed, 2 usage or config error.
`;

/** Parse argv (without node and script). Mistakes are ConfigErrors: exit code 2, one line. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: "string" },
        "skills-dir": { type: "string", multiple: true },
        transport: { type: "string" },
        format: { type: "string" },
        "log-level": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    // node:util phrases these well ("Unknown option '--x'"); keep the first line only.
    throw new ConfigError(`${String((error as Error).message).split("\n")[0]}; see --help`);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new ConfigError(`unexpected argument "${positionals[1]}"; see --help`);
  const command = positionals[0] ?? "serve";
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new ConfigError(`unknown command "${command}"; commands: ${COMMANDS.join(", ")}`);
  }
  const logLevel = values["log-level"];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, not "${logLevel}"`);
  }
  const format = values.format ?? "names-only";
  if (!(LIST_FORMATS as readonly string[]).includes(format)) {
    throw new ConfigError(`--format must be one of ${LIST_FORMATS.join(", ")}, not "${format}"`);
  }
  if (values.format !== undefined && command !== "list") throw new ConfigError(`--format applies to the list command only`);
  for (const name of ["config", "transport"] as const) {
    if (values[name] === "") throw new ConfigError(`--${name} needs a value`);
  }
  const skillsDirs = values["skills-dir"] ?? [];
  if (skillsDirs.some((dir) => dir === "")) throw new ConfigError(`--skills-dir needs a folder`);
  return {
    command: command as Command,
    help: values.help ?? false,
    version: values.version ?? false,
    configPath: values.config,
    transport: values.transport,
    skillsDirs,
    logLevel,
    format: format as ListFormat,
  };
}
