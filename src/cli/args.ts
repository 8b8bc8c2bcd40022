import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "../kernel/errors.js";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "../kernel/logger.js";
import { LIST_FORMATS, type ListFormat } from "../plugins/tools/list-skills/index.js";

export const AUDIT_FORMATS = ["text", "json", "sarif"] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];
import { parseCacheFlag, type CacheChoice } from "./cache-flag.js";
import { parseRankerFlag, type RankerChoice } from "./ranker-flag.js";
import {
  COMMAND_ALIASES,
  COMMAND_SPECS,
  COMMON,
  LIFECYCLE_COMMANDS,
  NOT_FOR_LIFECYCLE,
  SOURCE_FLAGS,
  type Command,
  type OptionSpec,
} from "./commands.js";
import type { DiskCacheFlags } from "./disk-cache-flags.js";
import { unknownCommand, unknownOption } from "./unknown-option.js";

const COMMANDS = Object.keys(COMMAND_SPECS) as Command[];

/** node:util's view of declared options: their types, without the words help shows. */
function parserOptions(specs: Readonly<Record<string, OptionSpec>>): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(
    Object.entries(specs).map(([name, { type, multiple, short }]) => [
      name,
      { type, ...(multiple && { multiple }), ...(short && { short }) },
    ]),
  );
}

export interface CliArgs {
  readonly command: Command;
  /** Whether the command word was given (`serve --help`), not implied (`--help`). */
  readonly commandNamed: boolean;
  readonly positionals: readonly string[];
  readonly help: boolean;
  readonly version: boolean;
  readonly configPath?: string;
  readonly skillsDirs: readonly string[];
  /** Let a config found by searching run code (see docs/configuration.md#trust). */
  readonly trustConfig: boolean;
  /** export: the folder to write the static site into, and the origin for absolute urls. */
  readonly out?: string;
  readonly baseUrl?: string;
  /** `--git URL|owner/repo[#REF][:PATH]`, repeatable. */
  readonly git: readonly string[];
  /** `--catalog URL`, repeatable. */
  readonly catalogs: readonly string[];
  /** `--skills-archive PATH_OR_URL`, repeatable. */
  readonly archives: readonly string[];
  /** Ask remote sources now instead of trusting what they fetched within their TTL. */
  readonly refresh: boolean;
  readonly logLevel?: LogLevel;
  readonly cache?: CacheChoice;
  /** `--ranker bm25|fuse|semantic`: replaces the config's ranker plugin. */
  readonly ranker?: RankerChoice;
  /** `--cache-dir DIR`, `--no-disk-cache`: where (or whether) what outlives a run is kept on disk. */
  readonly diskCache: DiskCacheFlags;
  readonly transport?: string;
  /** `--host`, `--port`, `--stateless`, `--replica-id`, `--auth-token`, `--oauth-*`: the http transport's options from flags. */
  readonly http: HttpFlags;
  readonly httpExtras: HttpExtras;
  readonly format: ListFormat;
  /** audit and doctor: text (default), json (audit: also `--json`) or sarif. */
  readonly auditFormat: AuditFormat;
  /** usage: text (default) or json (also `--json`), the days and one group's figures. */
  readonly usage: { readonly format: "text" | "json"; readonly days: number; readonly group?: string };
  readonly limit?: number;
  readonly json: boolean;
  /** call: the tool's arguments, a JSON object. */
  readonly toolArgs?: string;
  readonly to?: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  /** install, add: refuse a skill whose SKILL.md breaks the spec. */
  readonly strict: boolean;
  /** install, add: install a skill the audit finds high-severity problems in. */
  readonly allowRisky: boolean;
  /** sign: the private key. */
  readonly key?: string;
  /** verify, and every command that serves: the allowed signers file (ssh-keygen's format). */
  readonly allowedSigners?: string;
  /** Serve and install only skills signed by an allowed signer. */
  readonly requireSigned: boolean;
  /** add: the skills of the source to install (all when empty). */
  readonly skills: readonly string[];
  /** add, install, remove, installed: `--agent ID`, repeatable (`--agent '*'` is allAgents). */
  readonly agents: readonly string[];
  readonly allAgents: boolean;
  /** The user's folders and lock instead of the project's. */
  readonly global: boolean;
  /** add: a copy in each agent's folder instead of one copy linked. */
  readonly copy: boolean;
  /** add --list: name the source's skills, install nothing. */
  readonly listOnly: boolean;
  /** add, remove, update: ask nothing (npx skills' -y). */
  readonly yes: boolean;
  readonly verbose: boolean;
  /** restore: fail instead of repairing what does not match the lock. */
  readonly frozen: boolean;
  /** update, restore: take a signed skill whose signer changed, or whose signature is gone. */
  readonly acceptSigner: boolean;
  /** add, outdated, update, restore: `[user@]host=VARIABLE`, the variable holding that host's token. */
  readonly tokenEnv: readonly string[];
  /** installed: check what each agent will actually load. */
  readonly check: boolean;
  /** init: the new skill's description, and whether it gets references/ and scripts/. */
  readonly init: { readonly description?: string; readonly references: boolean; readonly scripts: boolean };
}

export interface HttpFlags {
  readonly host?: string;
  readonly port?: number;
  readonly stateless?: true;
  /** `--replica-id`: the prefix of the session ids this replica mints. */
  readonly replicaId?: string;
  readonly authToken?: string;
  /** `--oauth-issuer`, `--oauth-audience`: merged over the config's `oauth`. */
  readonly oauth?: { readonly issuer?: string; readonly audience?: string };
}

/** `--metrics`, `--ui`: plugins the http transport serves beside MCP. */
export interface HttpExtras {
  readonly metrics: boolean;
  readonly ui: boolean;
}

/**
 * SKILLS_KERNEL_TRUST_CONFIG: "1" or "true" trusts, unset, "", "0" or "false" does not; anything
 * else is a mistake worth stopping for, since guessing could run code the user did not allow.
 */
export function trustConfigFromEnv(value: string | undefined): boolean {
  const normalized = (value ?? "").trim().toLowerCase();
  if (normalized === "1" || normalized === "true") return true;
  if (normalized === "" || normalized === "0" || normalized === "false") return false;
  throw new ConfigError(`SKILLS_KERNEL_TRUST_CONFIG must be 1 or 0, not ${JSON.stringify(value)}`);
}

/** A lifecycle command given a common option it has no use for: one line saying why, exit 2. */
function refuseServerOptions(command: Command, tokens: ReturnType<typeof parseArgs>["tokens"]): void {
  for (const token of tokens ?? []) {
    if (token.kind !== "option") continue;
    const why = SOURCE_FLAGS.has(token.name)
      ? command === "add"
        ? "name the source as SOURCE (skills-kernel add PATH_OR_URL)"
        : "it reads the sources skills-lock.json records"
      : NOT_FOR_LIFECYCLE[token.name];
    if (why !== undefined) throw new ConfigError(`${command} does not take ${token.rawName}: ${why}`);
  }
}

/** Parse argv (without node and script). Mistakes are ConfigErrors: exit code 2, one line. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  // A first, lenient pass finds the command word without mistaking an option's value for it.
  const ALL_OPTIONS = parserOptions(Object.assign({}, COMMON, ...Object.values(COMMAND_SPECS).map((s) => s.options)));
  const lenient = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: false,
    options: ALL_OPTIONS,
    tokens: true,
  });
  const first = lenient.positionals[0];
  const alias = first !== undefined && Object.hasOwn(COMMAND_ALIASES, first) ? COMMAND_ALIASES[first] : undefined;
  const commandNamed = first !== undefined && (first in COMMAND_SPECS || alias !== undefined);
  const command = (alias ?? (commandNamed ? first : "serve")) as Command;
  const spec = COMMAND_SPECS[command];
  const known = { ...COMMON, ...spec.options };
  const stray = lenient.tokens.find((token) => token.kind === "option" && !Object.hasOwn(known, token.name));
  if (stray?.kind === "option") throw new ConfigError(unknownOption(stray.rawName, command, COMMON, COMMAND_SPECS));
  if (LIFECYCLE_COMMANDS.has(command)) refuseServerOptions(command, lenient.tokens);

  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: parserOptions(known) });
  } catch (error) {
    // Unknown options are caught above; node:util phrases the rest well ("Option '--to <value>'
    // argument missing"): keep the first line only.
    throw new ConfigError(`${String((error as Error).message).split("\n")[0]}; see --help`);
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const positionals = commandNamed ? parsed.positionals.slice(1) : parsed.positionals;

  if (!commandNamed && first !== undefined) {
    throw new ConfigError(unknownCommand(first, COMMANDS, Object.keys(COMMAND_ALIASES)));
  }
  const [least, most] = spec.positionals;
  if (!values.help && positionals.length < least) {
    throw new ConfigError(`${command} needs ${spec.usage}; see --help`);
  }
  if (positionals.length > most) throw new ConfigError(unexpectedArgument(positionals[most]!, lenient.tokens));

  const logLevel = values["log-level"];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, not "${String(logLevel)}"`);
  }
  const reports = command === "audit" || command === "doctor";
  const auditFormat = (values.format as string | undefined) ?? (values.json === true ? "json" : "text");
  const usage = usageFlags(command, values);
  const format =
    reports || command === "usage" ? "names-only" : ((values.format as string | undefined) ?? "names-only");
  if (reports && !(AUDIT_FORMATS as readonly string[]).includes(auditFormat)) {
    throw new ConfigError(`--format must be one of ${AUDIT_FORMATS.join(", ")}, not "${auditFormat}"`);
  }
  if (!(LIST_FORMATS as readonly string[]).includes(format)) {
    throw new ConfigError(`--format must be one of ${LIST_FORMATS.join(", ")}, not "${format}"`);
  }
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) {
      throw new ConfigError(`--limit must be a whole number from 1 to 50, not "${String(values.limit)}"`);
    }
  }
  if (command === "export" && !values.help && values.out === undefined)
    throw new ConfigError("export needs --out SITE; see --help");
  const baseUrl = values["base-url"] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl))
    throw new ConfigError(`--base-url must be an http(s) URL, not "${baseUrl}"`);
  if (command === "sign" && !values.help && values.key === undefined)
    throw new ConfigError("sign needs --key PRIVATE_KEY; see --help");
  if (values["require-signed"] === true && values["allowed-signers"] === undefined) {
    throw new ConfigError("--require-signed needs --allowed-signers FILE; see --help");
  }
  if (command === "verify" && !values.help && values["allowed-signers"] === undefined) {
    throw new ConfigError("verify needs --allowed-signers FILE; see --help");
  }
  for (const name of [
    "config",
    "out",
    "transport",
    "to",
    "host",
    "replica-id",
    "auth-token",
    "oauth-issuer",
    "oauth-audience",
    "cache",
    "ranker",
    "cache-dir",
    "key",
    "allowed-signers",
  ]) {
    if (values[name] === "") throw new ConfigError(`--${name} needs a value`);
  }
  for (const name of ["skill", "agent"]) {
    if ((values[name] as string[] | undefined)?.includes("")) throw new ConfigError(`--${name} needs a value`);
  }
  // npx skills' `'*'`: every agent, every skill of the source.
  const agents = (values.agent as string[] | undefined) ?? [];
  const skills = (values.skill as string[] | undefined) ?? [];
  if (command === "remove" && skills.includes("*"))
    throw new ConfigError(`remove takes skill names, not "*"; skills-kernel installed lists them`);
  if (command === "remove" && !values.help && positionals.length + skills.length === 0)
    throw new ConfigError("remove needs NAME... (or --skill NAME); see --help");
  const http = httpFlags(values);
  // export DIR: the folder is the one source, as --skills-dir DIR.
  const skillsDirs = [
    ...((values["skills-dir"] as string[] | undefined) ?? []),
    ...(command === "export" ? positionals : []),
  ];
  if (skillsDirs.some((dir) => dir === "")) throw new ConfigError(`--skills-dir needs a folder`);
  const git = (values.git as string[] | undefined) ?? [];
  if (git.some((repo) => repo === "")) throw new ConfigError(`--git needs a repository`);
  const catalogs = (values.catalog as string[] | undefined) ?? [];
  if (catalogs.some((url) => url === "")) throw new ConfigError(`--catalog needs a URL`);
  const archives = (values["skills-archive"] as string[] | undefined) ?? [];
  if (archives.some((archive) => archive === "")) throw new ConfigError(`--skills-archive needs a file or a URL`);
  return {
    command,
    commandNamed,
    positionals,
    help: values.help === true,
    version: values.version === true,
    configPath: values.config as string | undefined,
    skillsDirs,
    trustConfig: values["trust-config"] === true,
    out: values.out as string | undefined,
    baseUrl,
    git,
    catalogs,
    archives,
    refresh: values.refresh === true,
    logLevel,
    cache: typeof values.cache === "string" ? parseCacheFlag(values.cache) : undefined,
    ranker: typeof values.ranker === "string" ? parseRankerFlag(values.ranker) : undefined,
    diskCache: { dir: values["cache-dir"] as string | undefined, off: values["no-disk-cache"] === true },
    transport: values.transport as string | undefined,
    http,
    httpExtras: { metrics: values.metrics === true, ui: values.ui === true },
    format: format as ListFormat,
    auditFormat: auditFormat as AuditFormat,
    usage,
    limit,
    json: values.json === true,
    toolArgs: values.args as string | undefined,
    to: values.to as string | undefined,
    force: values.force === true,
    dryRun: values["dry-run"] === true,
    strict: values.strict === true,
    allowRisky: values["allow-risky"] === true,
    key: values.key as string | undefined,
    allowedSigners: values["allowed-signers"] as string | undefined,
    requireSigned: values["require-signed"] === true,
    skills: skills.includes("*") ? [] : skills,
    agents: agents.includes("*") ? [] : agents,
    allAgents: values["all-agents"] === true || agents.includes("*"),
    global: values.global === true,
    copy: values.copy === true,
    listOnly: values.list === true,
    yes: values.yes === true,
    verbose: values.verbose === true,
    frozen: values.frozen === true,
    acceptSigner: values["accept-signer"] === true,
    tokenEnv: (values["token-env"] as string[] | undefined) ?? [],
    check: values.check === true,
    init: {
      description: values.description as string | undefined,
      references: values.references === true,
      scripts: values.scripts === true,
    },
  };
}

/**
 * An argument past the last a command takes. npx skills takes `--agent a b`: here each --agent
 * names one, which is worth saying when the stray word follows one.
 */
function unexpectedArgument(word: string, tokens: ReturnType<typeof parseArgs>["tokens"] = []): string {
  const at = tokens.findIndex((token) => token.kind === "positional" && token.value === word);
  const before = tokens[at - 1];
  const repeat =
    before?.kind === "option" && before.name === "agent" && before.value !== undefined
      ? ` (--agent takes one agent each time: --agent ${before.value} --agent ${word})`
      : "";
  return `unexpected argument "${word}"${repeat}; see --help`;
}

/** `usage --format FORMAT --days N --group GROUP`, checked. */
function usageFlags(
  command: string,
  values: Record<string, string | string[] | boolean | undefined>,
): CliArgs["usage"] {
  const format = (values.format as string | undefined) ?? (values.json === true ? "json" : "text");
  if (command === "usage" && format !== "text" && format !== "json")
    throw new ConfigError(`--format must be text or json, not "${format}"`);
  const days = values.days === undefined ? 30 : Number(values.days);
  if (!/^\d+$/.test(String(values.days ?? 30)) || days < 1 || days > 3650)
    throw new ConfigError(`--days must be a whole number from 1 to 3650, not "${String(values.days)}"`);
  const group = values.group as string | undefined;
  if (group === "") throw new ConfigError("--group needs a value");
  return { format: format as "text" | "json", days, ...(group !== undefined && { group }) };
}

/** The http transport's flags; each is checked here so a typo is one line, not a schema dump. */
function httpFlags(values: Record<string, string | string[] | boolean | undefined>): HttpFlags {
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(String(values.port)) || port > 65_535) {
      throw new ConfigError(`--port must be a whole number from 0 to 65535, not "${String(values.port)}"`);
    }
  }
  // Its length is the http plugin's rule, checked where serving loads that plugin (main.ts).
  const authToken = values["auth-token"] as string | undefined;
  return {
    ...(values.host !== undefined && { host: values.host as string }),
    ...(port !== undefined && { port }),
    ...(values.stateless === true && { stateless: true as const }),
    ...(values["replica-id"] !== undefined && { replicaId: values["replica-id"] as string }),
    ...(authToken !== undefined && { authToken }),
    ...oauthFlags(values, authToken),
  };
}

/** `--oauth-issuer URL --oauth-audience AUD`: sign-in with an identity provider instead of a shared token. */
function oauthFlags(
  values: Record<string, string | string[] | boolean | undefined>,
  authToken: string | undefined,
): Pick<HttpFlags, "oauth"> {
  const issuer = values["oauth-issuer"] as string | undefined;
  const audience = values["oauth-audience"] as string | undefined;
  if (issuer === undefined && audience === undefined) return {};
  if (authToken !== undefined)
    throw new ConfigError("--auth-token and --oauth-issuer do not go together: a shared token names no caller");
  if (issuer !== undefined && !/^https?:\/\/[^/]/.test(issuer))
    throw new ConfigError(`--oauth-issuer must be an http(s) URL, not "${issuer}"`);
  return { oauth: { ...(issuer !== undefined && { issuer }), ...(audience !== undefined && { audience }) } };
}
