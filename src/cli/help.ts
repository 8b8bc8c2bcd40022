import {
  COMMAND_ALIASES,
  COMMAND_SPECS,
  COMMON,
  LIFECYCLE_COMMANDS,
  NOT_FOR_LIFECYCLE,
  SOURCE_FLAGS,
  type Command,
  type CommandSpec,
  type OptionSpec,
} from "./commands.js";

/** Help is written for an 80-column terminal. */
const WIDTH = 80;
/** Where an entry's words start, after `  --flag VALUE`. */
const COLUMN = 26;

const NO_BREAK = "\u00a0";

const COMMANDS = Object.keys(COMMAND_SPECS) as Command[];

/** `skills-kernel --help`: every command in a line, and the options every command takes. */
export function generalHelp(): string {
  const entries = (commands: readonly Command[]) =>
    commands.map((name) => entry(`skills-kernel ${name}`, COMMAND_SPECS[name].summary)).join("");
  return [
    "skills-kernel: serve Agent Skills to AI agents over MCP\n\n",
    "Usage: skills-kernel [COMMAND] [ARGUMENTS] [OPTIONS]; without a command, serve\n\n",
    "Commands (skills-kernel COMMAND --help for one's arguments and options):\n",
    entries(COMMANDS.filter((name) => !LIFECYCLE_COMMANDS.has(name))),
    "\nInstalled skills (docs/lifecycle.md; agents: docs/agents.md):\n",
    entries(COMMANDS.filter((name) => LIFECYCLE_COMMANDS.has(name))),
    wrap(
      `npx skills' names work too: ${listed(Object.entries(COMMAND_ALIASES).map(([alias, to]) => `${alias} (${to})`))}.`,
      0,
    ),
    "\nOptions for every command:\n",
    options(COMMON),
    wrap(
      `Of these, the installed-skills commands take only ${listed(commonFor("add").map(([name, option]) => flag(name, option)))}.`,
      0,
    ),
    "\nWithout a config, the server serves .claude/skills and .agents/skills under the\n",
    "working directory (project) and under your home folder (user); a project skill\n",
    "wins over a user skill of the same name.\n\n",
    "Exit codes: 0 success, 1 the operation failed, 2 usage or config error.\n",
  ].join("");
}

/** `skills-kernel COMMAND --help`: its usage, what it does and its own options; the common ones by name. */
export function commandHelp(command: Command): string {
  const spec: CommandSpec = COMMAND_SPECS[command];
  const usage = ["skills-kernel", command, spec.usage, "[OPTIONS]"].filter((part) => part !== "").join(" ");
  // A no-break space keeps each flag with its value when the line wraps.
  const common = commonFor(command)
    .map(([name, option]) => flag(name, option).replace(" ", NO_BREAK))
    .join(", ");
  const aliases = Object.keys(COMMAND_ALIASES).filter((alias) => COMMAND_ALIASES[alias] === command);
  return [
    `Usage: ${usage}\n\n`,
    wrap(spec.summary, 0),
    aliases.length > 0 ? wrap(`Also spelled ${listed(aliases)}, as npx skills spells it.`, 0) : "",
    Object.keys(spec.options).length > 0 ? `\nOptions:\n${options(spec.options)}` : "",
    "\n",
    wrap(
      `${LIFECYCLE_COMMANDS.has(command) ? "Common options it takes" : "Options for every command"} (skills-kernel --help says what each does): ${common}`,
      0,
    ),
  ]
    .join("")
    .replaceAll(NO_BREAK, " ");
}

/** The common options a command takes: the lifecycle commands take neither sources nor server options. */
function commonFor(command: Command): [string, OptionSpec][] {
  const all: [string, OptionSpec][] = Object.entries(COMMON);
  if (!LIFECYCLE_COMMANDS.has(command)) return all;
  return all.filter(([name]) => !SOURCE_FLAGS.has(name) && !(name in NOT_FOR_LIFECYCLE));
}

/** `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function options(specs: Readonly<Record<string, OptionSpec>>): string {
  return Object.entries(specs)
    .map(([name, spec]) => entry(`${spec.short ? `-${spec.short}, ` : ""}${flag(name, spec)}`, spec.help))
    .join("");
}

function flag(name: string, spec: OptionSpec): string {
  return `--${name}${spec.value ? ` ${spec.value}` : ""}`;
}

/** `  NAME      words`, the words wrapped at WIDTH and indented to COLUMN; a long name gets a line of its own. */
function entry(name: string, words: string): string {
  const head = `  ${name}`;
  const body = wrap(words, COLUMN);
  return head.length < COLUMN - 1 ? `${head.padEnd(COLUMN)}${body.slice(COLUMN)}` : `${head}\n${body}`;
}

function wrap(words: string, indent: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of words.split(" ")) {
    if (line !== "" && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((text) => `${" ".repeat(indent)}${text}\n`).join("");
}
