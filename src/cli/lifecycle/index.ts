import { resolve } from "node:path";
import { ConfigError, errorMessage } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import { parseTokenEnv, type TokenEnv } from "../../remote/git/host-tokens.js";
import { scopeFor } from "../../lifecycle/project.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import type { LifecycleContext } from "./context.js";

/** Runs one lifecycle command; each opens the sources it needs itself, so no server kernel is built. */
export async function runLifecycle(args: CliArgs, logger: Logger, io: CliIo): Promise<number> {
  const cwd = io.cwd;
  let tokenEnv: TokenEnv;
  try {
    tokenEnv = parseTokenEnv(args.tokenEnv);
  } catch (error) {
    throw new ConfigError(`--token-env: ${errorMessage(error)}`);
  }
  for (const [host, variable] of Object.entries(tokenEnv)) {
    if (!io.env[variable]) throw new ConfigError(`--token-env ${host}=${variable}: ${variable} is not set`);
  }
  const allowedSigners = args.allowedSigners && resolve(cwd, args.allowedSigners);
  const context: LifecycleContext = {
    cwd,
    io,
    scope: scopeFor(args.global, cwd),
    logger,
    tokenEnv,
    ...(allowedSigners && { allowedSigners }),
    ...(args.requireSigned && { requireSigned: true }),
  };
  switch (args.command) {
    case "add":
      return (await import("./add.js")).runAdd(args, context);
    case "installed":
      return (await import("./installed.js")).runInstalled(args, context);
    case "outdated":
      return (await import("./outdated.js")).runOutdated(args, context);
    case "update":
      return (await import("./update.js")).runUpdate(args, context);
    case "remove":
      return (await import("./remove.js")).runRemove(args, context);
    default:
      return (await import("./restore.js")).runRestore(args, context);
  }
}
