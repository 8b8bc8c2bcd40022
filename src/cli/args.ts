import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "../kernel/errors.js";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "../kernel/logger.js";
import { LIST_FORMATS, type ListFormat } from "../plugins/tools/list-skills/index.js";

export const AUDIT_FORMATS = ["text", "json", "sarif"] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];
import { parseCacheFlag, type CacheChoice } from "./cache-flag.js";
import type { DiskCacheFlags } from "./disk-cache-flags.js";
import { unknownOption } from "./unknown-option.js";

/** Options every command takes: where the skills come from and how loud to be. */
const COMMON = {
  config: { type: "string" },
  "skills-dir": { type: "string", multiple: true },
  "trust-config": { type: "boolean" },
  refresh: { type: "boolean" },
  git: { type: "string", multiple: true },
  catalog: { type: "string", multiple: true },
  "log-level": { type: "string" },
  cache: { type: "string" },
  "cache-dir": { type: "string" },
  "no-disk-cache": { type: "boolean" },
  "allowed-signers": { type: "string" },
  "require-signed": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const satisfies ParseArgsConfig["options"];

/** Each command's own options and how many positional arguments it takes. */
const COMMAND_SPECS = {
  serve: {
    options: {
      transport: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      stateless: { type: "boolean" },
      "auth-token": { type: "string" },
      metrics: { type: "boolean" },
      ui: { type: "boolean" },
      "oauth-issuer": { type: "string" },
      "oauth-audience": { type: "string" },
    },
    positionals: [0, 0],
    usage: "",
  },
  list: { options: { format: { type: "string" } }, positionals: [0, 0], usage: "" },
  search: { options: { limit: { type: "string" }, json: { type: "boolean" } }, positionals: [1, Infinity], usage: "QUERY" },
  read: { options: { json: { type: "boolean" } }, positionals: [1, 1], usage: "NAME" },
  validate: { options: { json: { type: "boolean" } }, positionals: [1, Infinity], usage: "PATH..." },
  audit: { options: { json: { type: "boolean" }, format: { type: "string" } }, positionals: [1, 1], usage: "PATH" },
  sign: { options: { key: { type: "string" } }, positionals: [1, 1], usage: "SKILL_DIR --key PRIVATE_KEY" },
  verify: { options: { json: { type: "boolean" } }, positionals: [1, 1], usage: "SKILL_DIR --allowed-signers FILE" },
  "cache-stats": { options: { json: { type: "boolean" } }, positionals: [0, 0], usage: "" },
  export: { options: { out: { type: "string" }, "base-url": { type: "string" } }, positionals: [1, 1], usage: "DIR --out SITE" },
  init: { options: { description: { type: "string" }, references: { type: "boolean" }, scripts: { type: "boolean" } }, positionals: [1, 1], usage: "NAME" },
  install: {
    options: {
      to: { type: "string" },
      agent: { type: "string", multiple: true },
      "all-agents": { type: "boolean" },
      global: { type: "boolean" },
      force: { type: "boolean" },
      "dry-run": { type: "boolean" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      "allow-risky": { type: "boolean" },
    },
    positionals: [1, 1],
    usage: "NAME",
  },
  add: {
    options: {
      skill: { type: "string", multiple: true },
      agent: { type: "string", multiple: true },
      "all-agents": { type: "boolean" },
      global: { type: "boolean" },
      copy: { type: "boolean" },
      force: { type: "boolean" },
      "dry-run": { type: "boolean" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
      "allow-risky": { type: "boolean" },
      "token-env": { type: "string", multiple: true },
    },
    positionals: [1, 1],
    usage: "SOURCE",
  },
  installed: { options: { global: { type: "boolean" }, json: { type: "boolean" }, check: { type: "boolean" } }, positionals: [0, 0], usage: "" },
  outdated: { options: { global: { type: "boolean" }, json: { type: "boolean" }, "token-env": { type: "string", multiple: true } }, positionals: [0, 0], usage: "" },
  update: {
    options: {
      global: { type: "boolean" },
      force: { type: "boolean" },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
      "allow-risky": { type: "boolean" },
      "accept-signer": { type: "boolean" },
      "token-env": { type: "string", multiple: true },
    },
    positionals: [0, Infinity],
    usage: "[NAME]...",
  },
  remove: { options: { global: { type: "boolean" }, agent: { type: "string", multiple: true } }, positionals: [1, Infinity], usage: "NAME" },
  restore: {
    options: {
      global: { type: "boolean" },
      frozen: { type: "boolean" },
      force: { type: "boolean" },
      "accept-signer": { type: "boolean" },
      "token-env": { type: "string", multiple: true },
    },
    positionals: [0, 0],
    usage: "",
  },
  tools: { options: { json: { type: "boolean" } }, positionals: [0, 0], usage: "" },
  call: { options: { args: { type: "string" } }, positionals: [1, 1], usage: "TOOL [--args JSON]" },
} as const satisfies Record<string, { options: ParseArgsConfig["options"]; positionals: readonly [number, number]; usage: string }>;

export type Command = keyof typeof COMMAND_SPECS;

/** The commands that manage installed skills and skills-lock.json (docs/lifecycle.md). */
export const LIFECYCLE_COMMANDS: ReadonlySet<Command> = new Set(["add", "installed", "outdated", "update", "remove", "restore"]);
const COMMANDS = Object.keys(COMMAND_SPECS) as Command[];

export interface CliArgs {
  readonly command: Command;
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
  /** Ask remote sources now instead of trusting what they fetched within their TTL. */
  readonly refresh: boolean;
  readonly logLevel?: LogLevel;
  readonly cache?: CacheChoice;
  /** `--cache-dir DIR`, `--no-disk-cache`: where (or whether) what outlives a run is kept on disk. */
  readonly diskCache: DiskCacheFlags;
  readonly transport?: string;
  /** `--host`, `--port`, `--stateless`, `--auth-token`: the http transport's options from flags. */
  readonly http: HttpFlags;
  readonly httpExtras: HttpExtras;
  readonly format: ListFormat;
  /** audit: text (default), json (also `--json`) or sarif. */
  readonly auditFormat: AuditFormat;
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
  /** add, install, remove: `--agent ID`, repeatable. */
  readonly agents: readonly string[];
  readonly allAgents: boolean;
  /** The user's folders and lock instead of the project's. */
  readonly global: boolean;
  /** add: a copy in each agent's folder instead of one copy linked. */
  readonly copy: boolean;
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
  readonly authToken?: string;
  /** `--oauth-issuer`, `--oauth-audience`: merged over the config's `oauth`. */
  readonly oauth?: { readonly issuer?: string; readonly audience?: string };
}

/** `--metrics`, `--ui`: plugins the http transport serves beside MCP. */
export interface HttpExtras {
  readonly metrics: boolean;
  readonly ui: boolean;
}

export const HELP = `skills-kernel: serve Agent Skills to AI agents over MCP

Usage:
  skills-kernel [serve] [--transport NAME]     run the MCP server (stdio by default)
  skills-kernel serve --transport http [--host H] [--port N] [--stateless] [--auth-token T]
                                       [--oauth-issuer URL --oauth-audience AUD]
                                       [--metrics] [--ui]
                                               serve MCP over HTTP at /mcp
  skills-kernel list [--format FORMAT]         the skills the server serves
  skills-kernel search QUERY [--limit N]       find skills (the search_skills tool)
  skills-kernel read NAME                      a skill's SKILL.md and its files (read_skill)
  skills-kernel validate PATH...               check skill folders against the Agent Skills
                                               spec; exits 1 if any is invalid
  skills-kernel audit PATH [--format FORMAT]   audit a skill, or the skills under a folder, for
                                               risky content; exits 1 if any finding is high
  skills-kernel init NAME [--description TEXT] [--references] [--scripts]
                                               make a new skill folder NAME with a valid SKILL.md
  skills-kernel sign SKILL_DIR --key KEY       sign a skill with an SSH key (writes SKILL.sig)
  skills-kernel verify SKILL_DIR --allowed-signers FILE
                                               check a skill's signature; exits 1 if unsigned,
                                               changed since signing, or signed by someone else
  skills-kernel install NAME [--to project|user|DIR | --agent ID...] [--force] [--dry-run]
                                               copy a served skill into a skills folder
  skills-kernel cache-stats                    how the cache is doing (get_cache_stats)
  skills-kernel tools [--json]                 the tools the config's plugins register
  skills-kernel call TOOL [--args JSON]        call one, as an agent would; prints its answer
  skills-kernel export DIR --out SITE [--base-url URL]
                                               write DIR's skills as a static Agent Skills
                                               discovery site (.well-known/agent-skills/)

Installed skills (docs/lifecycle.md; agents: docs/agents.md):
  skills-kernel add SOURCE [--skill NAME]... [--agent ID]... [--all-agents] [--copy]
                                               install skills from a repository (owner/repo,
                                               any git URL, #REF, :PATH), a catalog URL or a
                                               folder, recorded in skills-lock.json
  skills-kernel installed [--check] [--json]   installed skills and their state; --check: what
                                               each agent will load (exits 1 if one would not)
  skills-kernel outdated [--json]              tracked skills whose source moved on
  skills-kernel update [NAME]... [--force] [--dry-run]
                                               bring tracked skills to their source's latest
  skills-kernel remove NAME... [--agent ID]... remove skills (from some agents only)
  skills-kernel restore [--frozen]             install exactly what skills-lock.json records

Options for every command:
  --config FILE          config file (default: plugins.config.*, .skills-kernelrc,
                         or a "skills-kernel" key in package.json, searched from here
                         up to the project root; without one, the embedded default)
  --skills-dir DIR       serve exactly this folder of skills (repeatable)
  --git REPO             serve skills from a git repository: URL or owner/repo,
                         then optionally #REF and :PATH (repeatable)
  --catalog URL          serve skills from a JSON catalog over HTTP, or a site's
                         /.well-known/skills/index.json (repeatable)
                         Any of these three serves exactly the sources named, and
                         no config is searched for.
  --refresh              ask git repositories and catalogs for changes now, instead of
                         using what was fetched within their TTL (10 minutes by default)
  --trust-config         let a config found by searching run code (a JS/TS config, or
                         plugins that are not built-ins) and reach the network, the
                         environment or a listener; also SKILLS_KERNEL_TRUST_CONFIG=1
  --allowed-signers FILE ssh-keygen's allowed signers file: read_skill says who signed a
                         skill; verify checks against it
  --require-signed       serve and install only skills whose SKILL.sig verifies against
                         --allowed-signers
  --log-level LEVEL      ${LOG_LEVELS.join(", ")} (default: info for serve, warn otherwise)
  --cache BACKEND        memory (the default) or redis://HOST:PORT[/DB]; replaces the
                         config's cache plugin
  --cache-dir DIR        the cache folder (skill snapshots, search indexes, downloads);
                         also SKILLS_KERNEL_CACHE_DIR (default ~/.cache/skills-kernel)
  --no-disk-cache        keep no skill snapshot or search index on disk: every start
                         reads every SKILL.md and builds the index
  -h, --help             show this help
  -v, --version          print the version

Command options:
  --transport NAME       serve: stdio (default) or http
  --host HOST            serve http: address to listen on (default 127.0.0.1)
  --port N               serve http: port (default 3000; 0 picks a free one)
  --stateless            serve http: no 2025-11-25 sessions either, so any replica answers any request
  --auth-token TOKEN     serve http: require Authorization: Bearer TOKEN (16+ characters;
                         or set SKILLS_KERNEL_AUTH_TOKEN, which keeps it out of ps)
  --metrics              serve http: Prometheus metrics at GET /metrics
  --ui                   serve http: a read-only catalog page at GET /
  --oauth-issuer URL     serve http: sign-in, JWT access tokens from this issuer (with
  --oauth-audience AUD   the audience they must name); see docs/security.md#sign-in
  --format FORMAT        list: names-only (default), json or full; audit: text (default),
                         json or sarif (SARIF 2.1.0, for code scanning)
  --limit N              search: how many results, 1 to 50 (default 5)
  --json                 search, read, validate, audit, install, add, installed, outdated,
                         update, cache-stats: print JSON
  --to TARGET            install: project (default), user, or a folder
  --agent ID             install, add, remove: this agent's folder (repeatable; see docs/agents.md)
  --all-agents           install, add: every agent's folder
  --global               add, installed, outdated, update, remove, restore, install --agent:
                         the user's folders and lock instead of the project's
  --copy                 add: a copy for each agent instead of one copy linked
  --force                install, add: replace a skill already there; update, restore:
                         replace local edits
  --dry-run              install, add, update: say what would be written, write nothing
  --strict               install, add: refuse a skill whose SKILL.md breaks the spec (spec problems are warnings otherwise)
  --skill NAME           add: only this skill of the source (repeatable; or SOURCE@NAME)
  --allow-risky          install, add, update: install a skill the audit finds
                         high-severity problems in (refused otherwise, with the findings)
  --verbose              add, update: list each skill's files and warnings
  --frozen               restore: change nothing that does not match the lock; exit 1 instead
  --accept-signer        update, restore: take a skill whose signer changed from the one
                         the lock records, or that is no longer signed
  --token-env HOST=VAR   add, outdated, update, restore: send $VAR as the token to git over
                         HTTPS at HOST (USER@HOST=VAR to name a user; repeatable);
                         github.com uses GITHUB_TOKEN or GH_TOKEN unasked

Without a config, the server serves .claude/skills and .agents/skills under the
working directory (project) and under your home folder (user); a project skill
wins over a user skill of the same name.

Exit codes: 0 success, 1 the operation failed, 2 usage or config error.
`;

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

/** Parse argv (without node and script). Mistakes are ConfigErrors: exit code 2, one line. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  // A first, lenient pass finds the command word without mistaking an option's value for it.
  const ALL_OPTIONS = Object.assign({}, COMMON, ...Object.values(COMMAND_SPECS).map((s) => s.options));
  const lenient = parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: ALL_OPTIONS, tokens: true });
  const first = lenient.positionals[0];
  const command = (first !== undefined && first in COMMAND_SPECS ? first : "serve") as Command;
  const spec = COMMAND_SPECS[command];
  const known = { ...COMMON, ...spec.options };
  const stray = lenient.tokens.find((token) => token.kind === "option" && !Object.hasOwn(known, token.name));
  if (stray?.kind === "option") throw new ConfigError(unknownOption(stray.rawName, command, COMMON, COMMAND_SPECS));

  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { ...COMMON, ...spec.options } });
  } catch (error) {
    // Unknown options are caught above; node:util phrases the rest well ("Option '--to <value>'
    // argument missing"): keep the first line only.
    throw new ConfigError(`${String((error as Error).message).split("\n")[0]}; see --help`);
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const positionals = command === "serve" && first !== "serve" ? parsed.positionals : parsed.positionals.slice(1);

  if (command === "serve" && first !== undefined && first !== "serve") {
    throw new ConfigError(`unknown command "${first}"; commands: ${COMMANDS.join(", ")}`);
  }
  const [least, most] = spec.positionals;
  if (!values.help && positionals.length < least) {
    throw new ConfigError(`${command} needs ${spec.usage}; see --help`);
  }
  if (positionals.length > most) throw new ConfigError(`unexpected argument "${positionals[most]}"; see --help`);

  const logLevel = values["log-level"];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, not "${String(logLevel)}"`);
  }
  const auditFormat = (values.format as string | undefined) ?? (values.json === true ? "json" : "text");
  const format = command === "audit" ? "names-only" : ((values.format as string | undefined) ?? "names-only");
  if (command === "audit" && !(AUDIT_FORMATS as readonly string[]).includes(auditFormat)) {
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
  if (command === "export" && !values.help && values.out === undefined) throw new ConfigError("export needs --out SITE; see --help");
  const baseUrl = values["base-url"] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new ConfigError(`--base-url must be an http(s) URL, not "${baseUrl}"`);
  if (command === "sign" && !values.help && values.key === undefined) throw new ConfigError("sign needs --key PRIVATE_KEY; see --help");
  if (values["require-signed"] === true && values["allowed-signers"] === undefined) {
    throw new ConfigError("--require-signed needs --allowed-signers FILE; see --help");
  }
  if (command === "verify" && !values.help && values["allowed-signers"] === undefined) {
    throw new ConfigError("verify needs --allowed-signers FILE; see --help");
  }
  for (const name of ["config", "out", "transport", "to", "host", "auth-token", "oauth-issuer", "oauth-audience", "cache", "cache-dir", "key", "allowed-signers"]) {
    if (values[name] === "") throw new ConfigError(`--${name} needs a value`);
  }
  for (const name of ["skill", "agent"]) {
    if ((values[name] as string[] | undefined)?.includes("")) throw new ConfigError(`--${name} needs a value`);
  }
  const http = httpFlags(values);
  // export DIR: the folder is the one source, as --skills-dir DIR.
  const skillsDirs = [...((values["skills-dir"] as string[] | undefined) ?? []), ...(command === "export" ? positionals : [])];
  if (skillsDirs.some((dir) => dir === "")) throw new ConfigError(`--skills-dir needs a folder`);
  const git = (values.git as string[] | undefined) ?? [];
  if (git.some((repo) => repo === "")) throw new ConfigError(`--git needs a repository`);
  const catalogs = (values.catalog as string[] | undefined) ?? [];
  if (catalogs.some((url) => url === "")) throw new ConfigError(`--catalog needs a URL`);
  return {
    command,
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
    refresh: values.refresh === true,
    logLevel,
    cache: typeof values.cache === "string" ? parseCacheFlag(values.cache) : undefined,
    diskCache: { dir: values["cache-dir"] as string | undefined, off: values["no-disk-cache"] === true },
    transport: values.transport as string | undefined,
    http,
    httpExtras: { metrics: values.metrics === true, ui: values.ui === true },
    format: format as ListFormat,
    auditFormat: auditFormat as AuditFormat,
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
    skills: (values.skill as string[] | undefined) ?? [],
    agents: (values.agent as string[] | undefined) ?? [],
    allAgents: values["all-agents"] === true,
    global: values.global === true,
    copy: values.copy === true,
    verbose: values.verbose === true,
    frozen: values.frozen === true,
    acceptSigner: values["accept-signer"] === true,
    tokenEnv: (values["token-env"] as string[] | undefined) ?? [],
    check: values.check === true,
    init: { description: values.description as string | undefined, references: values.references === true, scripts: values.scripts === true },
  };
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
    ...(authToken !== undefined && { authToken }),
    ...oauthFlags(values, authToken),
  };
}

/** `--oauth-issuer URL --oauth-audience AUD`: sign-in with an identity provider instead of a shared token. */
function oauthFlags(values: Record<string, string | string[] | boolean | undefined>, authToken: string | undefined): Pick<HttpFlags, "oauth"> {
  const issuer = values["oauth-issuer"] as string | undefined;
  const audience = values["oauth-audience"] as string | undefined;
  if (issuer === undefined && audience === undefined) return {};
  if (authToken !== undefined) throw new ConfigError("--auth-token and --oauth-issuer do not go together: a shared token names no caller");
  if (issuer !== undefined && !/^https?:\/\/[^/]/.test(issuer)) throw new ConfigError(`--oauth-issuer must be an http(s) URL, not "${issuer}"`);
  return { oauth: { ...(issuer !== undefined && { issuer }), ...(audience !== undefined && { audience }) } };
}
