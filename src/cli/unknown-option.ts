import { distance } from "fastest-levenshtein";

type Options = Readonly<Record<string, { readonly type: string; readonly short?: string }>>;

/**
 * An unknown flag in the user's words: which commands take it when it belongs to another
 * (`search --format` is list's), or the flag it is a slip of; never the argument parser's text.
 */
export function unknownOption(
  flag: string,
  command: string,
  common: Options,
  specs: Readonly<Record<string, { readonly options: Options }>>,
): string {
  const name = flag.replace(/^-+/, "").split("=")[0]!;
  const isShort = !flag.startsWith("--");
  const takes = (options: Options) =>
    Object.entries(options).some(([long, { short }]) => (isShort ? short === name : long === name));
  const owners = Object.keys(specs).filter((other) => other !== command && takes(specs[other]!.options));
  const help = `see skills-kernel ${command} --help`;
  if (owners.length > 0) {
    const shown = owners.length > 4 ? `${owners.slice(0, 4).join(", ")}, …` : owners.join(", ");
    return `${command} takes no ${flag} option (${shown} ${owners.length === 1 ? "takes" : "take"} it); ${help}`;
  }
  const own = Object.keys({ ...common, ...specs[command]!.options });
  const near = isShort ? undefined : nearest(name, own);
  return `unknown option ${flag}${near ? `; did you mean --${near}?` : ""}; ${help}`;
}

function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= 2 && bestDistance * 3 <= name.length ? best : undefined;
}

/** npx skills' commands with another name here, for the hint when one is typed. */
const NPX_SKILLS_EQUIVALENTS: Readonly<Record<string, string>> = { experimental_install: "restore", a: "add" };

/** An unknown command: the one it is a slip of, or npx skills' word for one, else every command. */
export function unknownCommand(word: string, commands: readonly string[], aliases: readonly string[]): string {
  const near = Object.hasOwn(NPX_SKILLS_EQUIVALENTS, word)
    ? NPX_SKILLS_EQUIVALENTS[word]
    : nearest(word, [...commands, ...aliases]);
  return near
    ? `unknown command "${word}"; did you mean ${near}? (skills-kernel --help lists every command)`
    : `unknown command "${word}"; commands: ${commands.join(", ")}`;
}
