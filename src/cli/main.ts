import { homedir } from "node:os";
import { relative, resolve } from "node:path";
import { loadConfig } from "../config/config-loader.js";
import { ConfigError, ERROR_CODES, PluginError, UserError, describeChain, errorMessage } from "../kernel/errors.js";
import { createKernel, type SkillsKernel as Kernel } from "../create-kernel.js";
import { createLogger, type Logger } from "../kernel/logger.js";
import type { ResolvedPluginEntry } from "../kernel/config.js";
import { builtinPlugins } from "../plugins/index.js";
import { VERSION } from "../version.js";
import { parseCliArgs, trustConfigFromEnv, type CliArgs, type HttpFlags } from "./args.js";
import { LIFECYCLE_COMMANDS } from "./commands.js";
import { commandHelp, generalHelp } from "./help.js";
import { NOTHING_SERVED_HINT, printBanner, type BannerFacts } from "./banner.js";
import { EMBEDDED_DEFAULT_CONFIG, embeddedDefaultRoots } from "./default-config.js";
import { hasExplicitSources, serveExactly, splitSkillsDirs } from "./sources.js";
import {
  cacheStatsCommand,
  callCommand,
  listCommand,
  readCommand,
  searchCommand,
  toolsCommand,
} from "./tool-commands.js";
import { applyCacheChoice } from "./cache-flag.js";
import { applyRankerChoice } from "./ranker-flag.js";
import { applyDiskCacheFlags, hasDiskCacheFlags } from "./disk-cache-flags.js";
import { applyPolicyFlags, policyFlags } from "./policy-flags.js";
import { forInProcessUse, IN_PROCESS_COMMANDS } from "./in-process.js";
import type { CliIo } from "./io.js";

/** Signals that stop a server cleanly. SIGHUP: the terminal or the client's session went away. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How long shutdown may take before the process exits anyway (a plugin holding a handle open). */
const SHUTDOWN_GRACE_MS = 5_000;
/** How long a one-shot command waits for a slow source before answering without it. */
const ONE_SHOT_WAIT_MS = 5_000;

/**
 * Run the CLI with the process's parts `io` gives (src/cli.ts passes the process's own). Resolves
 * to the exit code; a served session resolves when the transport closes.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const sink = (line: string) => void io.stderr.write(`${line}\n`);
  let logger: Logger = createLogger("info", sink);
  // A plugin's stray throw (a timer, a promise nobody awaits) is still a bug to report in one line.
  const crash = (error: unknown) => {
    io.stderr.write(`skills-kernel: internal error: ${errorMessage(error)} (run with --log-level debug for details)\n`);
    logger.debug(describeChain(error));
    io.exit(1);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  // `skills-kernel list | head`: once the reader is gone, the rest of the output has nowhere to go.
  const closedPipe = (error: NodeJS.ErrnoException) => exitQuietlyOnClosedPipe(error, io);
  try {
    const args = parseCliArgs(argv);
    if (args.command !== "serve") io.stdout.on("error", closedPipe);
    if (args.help) {
      io.stdout.write(args.commandNamed ? commandHelp(args.command) : generalHelp());
      return 0;
    }
    if (args.version) {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    if (args.command === "validate") {
      // Validation reads folders on disk against the spec: no config, no kernel.
      const { runValidate } = await import("./validate.js");
      return await runValidate([...args.positionals], { json: args.json }, io);
    }
    if (args.command === "audit") {
      // Like validate: folders on disk, no config, no kernel.
      const { runAudit } = await import("./audit.js");
      return await runAudit(args.positionals[0]!, { format: args.auditFormat }, io);
    }
    if (args.command === "init") return await (await import("./init.js")).runInit(args.positionals[0]!, args.init, io);
    if (args.command === "sign") return await (await import("./sign.js")).runSign(args.positionals[0]!, args.key!, io);
    if (args.command === "verify")
      return await (await import("./sign.js")).runVerify(args.positionals[0]!, args.allowedSigners!, args.json, io);
    if (LIFECYCLE_COMMANDS.has(args.command)) {
      // Installed skills come from the sources each command names or the lock records: no config, no server.
      logger = createLogger(args.logLevel ?? "warn", sink);
      return await (await import("./lifecycle/index.js")).runLifecycle(args, logger, io);
    }
    const cwd = io.cwd;
    const split = splitSkillsDirs(args.skillsDirs);
    const sources = {
      skillsDirs: split.dirs,
      git: [...split.git, ...args.git],
      catalogs: args.catalogs,
      archives: args.archives,
    };
    // Checked even where no config is searched for: a mistyped value is said, never passed over.
    const trustFromEnv = trustConfigFromEnv(io.env.SKILLS_KERNEL_TRUST_CONFIG);
    // A source named on the command line means no config search at all (docs/configuration.md#trust).
    const loaded = await findConfig(args, cwd, hasExplicitSources(sources), trustFromEnv);
    const config = loaded?.config ?? EMBEDDED_DEFAULT_CONFIG;
    logger = createLogger(args.logLevel ?? config.logLevel ?? (args.command === "serve" ? "info" : "warn"), sink);
    if (loaded) logger.info(`config: ${loaded.filepath}${loaded.origin === "found" ? " (found by searching)" : ""}`);
    else
      logger.debug(
        hasExplicitSources(sources)
          ? "sources named on the command line: no config search"
          : "no config file found; using the embedded default",
      );

    const transport = args.transport ?? config.transport ?? "stdio";
    const httpFlagsGiven = Object.keys(args.http).length > 0 || args.httpExtras.metrics || args.httpExtras.ui;
    if (httpFlagsGiven && (args.command !== "serve" || transport !== "http")) {
      throw new ConfigError(
        "--host, --port, --stateless, --replica-id, --auth-token, --oauth-*, --metrics and --ui apply to serve --transport http",
      );
    }
    if (args.http.authToken !== undefined || args.http.replicaId !== undefined) {
      // Imported here, not by the argument parser: every other command starts without the http plugin.
      const { MIN_TOKEN_LENGTH, REPLICA_ID } = await import("../plugins/transports/http/index.js");
      if (args.http.authToken !== undefined && args.http.authToken.length < MIN_TOKEN_LENGTH) {
        throw new ConfigError(`--auth-token must be at least ${MIN_TOKEN_LENGTH} characters`);
      }
      if (args.http.replicaId !== undefined && !REPLICA_ID.pattern.test(args.http.replicaId)) {
        throw new ConfigError(`--replica-id must be ${REPLICA_ID.rule}, not "${args.http.replicaId}"`);
      }
    }
    const adjustments = [
      ...(hasExplicitSources(sources) ? [serveExactly(sources, cwd)] : []),
      // doctor DIR...: the folders under review, ranked against everything else served.
      ...(args.command === "doctor" && args.positionals.length > 0
        ? [(await import("./doctor/index.js")).withReviewFolders(args.positionals, cwd)]
        : []),
      ...(args.command === "serve" && transport === "http"
        ? [withHttpPlugin(args.http), withPlugin("well-known", "serve --transport http")]
        : []),
      ...(args.httpExtras.metrics ? [withPlugin("metrics", "--metrics")] : []),
      ...(args.httpExtras.ui ? [withPlugin("catalog-page", "--ui")] : []),
      ...(args.command === "usage" ? [withPlugin("usage", "the usage command")] : []),
      ...(args.cache ? [(plugins: ResolvedPluginEntry[]) => applyCacheChoice(plugins, args.cache!)] : []),
      ...(args.ranker ? [(plugins: ResolvedPluginEntry[]) => applyRankerChoice(plugins, args.ranker!)] : []),
      ...(hasDiskCacheFlags(args.diskCache)
        ? [(plugins: ResolvedPluginEntry[]) => applyDiskCacheFlags(plugins, args.diskCache, cwd)]
        : []),
      ...(args.allowedSigners !== undefined
        ? [
            (plugins: ResolvedPluginEntry[]) =>
              applyPolicyFlags(plugins, policyFlags(args.allowedSigners!, args.requireSigned, cwd)),
          ]
        : []),
    ];
    const inProcessTools = IN_PROCESS_COMMANDS.get(args.command);
    const kernel = await createKernel({
      config: inProcessTools ? forInProcessUse(config, inProcessTools) : config,
      inProcessOnly: inProcessTools !== undefined,
      baseDir: loaded?.baseDir ?? cwd,
      configSource: loaded ? relative(cwd, loaded.filepath) || loaded.filepath : "embedded default config",
      logger,
      adjustPlugins: adjustments.length > 0 ? chain(adjustments) : undefined,
    });
    // A one-shot command answers from what has loaded by then, once something has: a hanging
    // catalog beside a local folder must not hold the answer the folder can give.
    if (args.command !== "serve") kernel.catalog.answerWithin(ONE_SHOT_WAIT_MS, { waitForOneSource: true });
    if (args.refresh) {
      // A one-shot command answers from the revalidated catalog; a server announces what changed.
      const revalidated = kernel.catalog.refresh(undefined, undefined, { revalidate: true });
      if (args.command !== "serve") await kernel.catalog.within(revalidated);
    }
    if (args.command !== "serve") {
      try {
        const code = await runCommand(kernel, args, io);
        // Only an answer that waited out the bound lacks a source; a refused argument waited for nothing.
        for (const source of kernel.catalog.answeredWithout()) {
          io.stderr.write(
            `skills-kernel: source "${source}" was still loading after ${ONE_SHOT_WAIT_MS / 1000} s; this answer is without its skills\n`,
          );
        }
        return code;
      } finally {
        await kernel.close();
      }
    }
    return await serve(kernel, io, {
      transport,
      // Where the transport's name came from, for the error naming an unknown one.
      transportFrom: args.transport !== undefined || !loaded ? "--transport" : relative(cwd, loaded.filepath),
      configFile: loaded?.filepath,
      skillsDirs: split.dirs.map((d) => resolve(cwd, d)),
    });
  } catch (error) {
    if (error instanceof PluginError && error.bug) {
      // A plugin's bug, not the user's mistake: one line here, the whole cause chain at debug.
      io.stderr.write(
        `skills-kernel: ${error.message.replace(/\s*\n\s*/g, " ")} (a bug in that plugin; run with --log-level debug for the stack)\n`,
      );
      logger.debug(describeChain(error));
      return 1;
    }
    if (error instanceof UserError) {
      // One line, whatever the message holds: a user's mistake never gets a stack trace.
      io.stderr.write(`skills-kernel: ${error.message.replace(/\s*\n\s*/g, " ")}\n`);
      return error.exitCode;
    }
    io.stderr.write(`skills-kernel: internal error: ${errorMessage(error)} (run with --log-level debug for details)\n`);
    logger.debug(describeChain(error));
    return 1;
  } finally {
    // In a test, many runs share one process: each takes back what it hooked in it. The closed-pipe
    // handler stays: a reader gone while the last answer flushes is still a quiet exit.
    process.off("uncaughtException", crash);
    process.off("unhandledRejection", crash);
  }
}

/**
 * The trust model (docs/configuration.md#trust): a named config always loads; an explicit source
 * flag means no search at all; a found config runs no code, and reaches nothing a built-in marks
 * as needing trust, unless the user allowed it.
 */
async function findConfig(args: CliArgs, cwd: string, sourcesNamed: boolean, trustFromEnv: boolean) {
  if (args.configPath === undefined && sourcesNamed) return null;
  return loadConfig({
    cwd,
    configPath: args.configPath,
    trust: args.trustConfig || trustFromEnv,
    builtins: builtinPlugins,
    // Only serve starts the config's transport: list, search and the rest listen on nothing.
    startsTransport: args.command === "serve",
    trustHint: (file) =>
      `to run it, name it with --config ${relative(cwd, file) || file}, or pass --trust-config (or set SKILLS_KERNEL_TRUST_CONFIG=1)`,
  });
}

/** A closed stdout (EPIPE) ends a one-shot command quietly, as it ends `cat`; any other write error is a failure. */
function exitQuietlyOnClosedPipe(error: NodeJS.ErrnoException, io: CliIo): void {
  if (error.code === "EPIPE") {
    io.exit(0);
    return;
  }
  io.stderr.write(`skills-kernel: cannot write to stdout: ${errorMessage(error)}\n`);
  io.exit(1);
}

type Adjust = (plugins: ResolvedPluginEntry[]) => Promise<ResolvedPluginEntry[]>;

function chain(adjustments: readonly Adjust[]): Adjust {
  return async (plugins) => {
    let adjusted = plugins;
    for (const adjust of adjustments) adjusted = await adjust(adjusted);
    return adjusted;
  };
}

/**
 * Serving over HTTP needs the http plugin: add it when the config does not list it, and let the
 * flags override its options (the config's own stay for everything the flags do not set).
 */
function withHttpPlugin(flags: HttpFlags): Adjust {
  return async (plugins) => {
    const http = plugins.find((entry) => entry.plugin.name === "http");
    if (!http)
      return [...plugins, { plugin: await builtinPlugins.http!(), options: { ...flags }, origin: "--transport http" }];
    const options = typeof http.options === "object" && http.options !== null ? http.options : {};
    // --oauth-issuer and --oauth-audience each replace one field of the config's oauth.
    const oauth = flags.oauth && { ...(options as { oauth?: object }).oauth, ...flags.oauth };
    return plugins.map((entry) =>
      entry === http ? { ...http, options: { ...options, ...flags, ...(oauth && { oauth }) } } : entry,
    );
  };
}

/** A flag that turns a built-in plugin on: added with its defaults unless the config lists it already. */
function withPlugin(name: string, origin: string): Adjust {
  return async (plugins) =>
    plugins.some((entry) => entry.plugin.name === name)
      ? plugins
      : [...plugins, { plugin: await builtinPlugins[name]!(), options: {}, origin }];
}

async function serve(
  kernel: Kernel,
  io: CliIo,
  facts: BannerFacts & { readonly transportFrom: string },
): Promise<number> {
  let running;
  try {
    running = await kernel.serve(facts.transport);
  } catch (error) {
    // The plugins are up: give them their stop hooks before reporting.
    await kernel.close();
    // The kernel knows the transports its plugins registered; the CLI adds http when asked for it.
    if (error instanceof UserError && error.code === ERROR_CODES.UNKNOWN_TRANSPORT)
      throw new ConfigError(
        `${facts.transportFrom}: unknown transport "${facts.transport}"; serve takes stdio (the default), http, or a transport a plugin of the config adds`,
        ERROR_CODES.UNKNOWN_TRANSPORT,
      );
    throw error;
  }
  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    stopping ??= (async () => {
      kernel.logger.debug(`stopping (${why})`);
      // A plugin that leaks a handle must not keep a finished server alive forever.
      setTimeout(() => {
        kernel.logger.warn(`still running ${SHUTDOWN_GRACE_MS} ms after shutdown; exiting`);
        io.exit(0);
      }, SHUTDOWN_GRACE_MS).unref();
      await running.close();
      await kernel.close();
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => void stop(signal);
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);

  void kernel.catalog
    .ready()
    .then(() => {
      if (stopping !== undefined) return;
      // The banner tells how to start this server over stdio; an HTTP server has said where it listens.
      const served = kernel.catalog.list().length;
      if (served === 0) kernel.logger.warn(NOTHING_SERVED_HINT);
      if (io.stdin.isTTY && facts.transport === "stdio") printBanner(kernel, facts, io.stderr);
      else if (served > 0)
        kernel.logger.info(`serving ${served} skill${served === 1 ? "" : "s"} over ${facts.transport}`);
    })
    .catch((error: unknown) => kernel.logger.error(`cannot describe what is served: ${errorMessage(error)}`));
  await running.closed;
  await stop("transport closed");
  return 0;
}

async function runCommand(kernel: Kernel, args: CliArgs, io: CliIo): Promise<number> {
  switch (args.command) {
    case "list":
      return listCommand(kernel, args, io);
    case "search":
      return searchCommand(kernel, args, io);
    case "read":
      return readCommand(kernel, args, io);
    case "cache-stats":
      return cacheStatsCommand(kernel, args, io);
    case "tools":
      return toolsCommand(kernel, args, io);
    case "call":
      return callCommand(kernel, args, io);
    case "export":
      return (await import("./export.js")).runExport(kernel, resolve(io.cwd, args.out!), args.baseUrl, io);
    case "doctor":
      return (await import("./doctor/index.js")).runDoctor(kernel, args.positionals, args.auditFormat, io);
    case "usage":
      return (await import("./usage.js")).runUsage(kernel, args, io);
    case "install": {
      const { runInstall } = await import("./install.js");
      // Serving only the folders named, this kernel does not serve .claude/skills; a plain
      // `skills-kernel` there does, so installing into it is not worth a warning.
      const servedByDefault =
        args.configPath === undefined &&
        hasExplicitSources({
          skillsDirs: args.skillsDirs,
          git: args.git,
          catalogs: args.catalogs,
          archives: args.archives,
        });
      return runInstall(
        kernel,
        args.positionals[0]!,
        {
          to: args.to ?? "project",
          agents: args.agents,
          allAgents: args.allAgents,
          global: args.global,
          force: args.force,
          dryRun: args.dryRun,
          strict: args.strict,
          json: args.json,
          allowRisky: args.allowRisky,
          servedElsewhere: servedByDefault ? embeddedDefaultRoots(io.cwd, homedir()) : [],
        },
        io,
      );
    }
    default:
      throw new Error(`no handler for the ${args.command} command`);
  }
}
