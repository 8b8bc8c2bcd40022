import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A command a doc tells the reader to run, and where it stands. */
export interface DocCommand {
  readonly doc: string;
  readonly line: number;
  /** As written, placeholders and all. */
  readonly text: string;
  /** Words, quotes removed. */
  readonly words: readonly string[];
  /** The trailing `# comment`, when it names a path (`./.claude/skills/pdf`): the command must create it. */
  readonly creates?: string;
  /** Run in the checkout (after `cd /abs/skills-kernel` or `npm ci`), else in a fresh project folder. */
  readonly inCheckout: boolean;
}

/** A file a doc shows whole, introduced by a `// name` first line (README's `plugins.config.ts`). */
export interface DocFile {
  readonly name: string;
  readonly text: string;
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```/gm;
const RUNNABLE_IN_TABLES = /^(?:node|bun|deno) /;

/**
 * Every command a doc shows: each line of a ```sh block (split at `&&`, `cd` followed), each
 * server of a ```json client entry (`mcpServers` or `servers`), and each `node`/`bun`/`deno`
 * command in a table cell.
 */
export function docCommands(root: string, doc: string): DocCommand[] {
  const text = readFileSync(join(root, doc), "utf8");
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const commands: DocCommand[] = [];
  for (const fence of text.matchAll(FENCE)) {
    const [, lang, body] = fence as unknown as [string, string, string];
    const start = lineOf(fence.index!) + 1;
    if (lang === "sh") {
      let inCheckout = false;
      body.split("\n").forEach((raw, offset) => {
        const [code, comment] = splitComment(raw);
        for (const part of code
          .split(" && ")
          .map((p) => p.trim())
          .filter(Boolean)) {
          const words = shellWords(part);
          if (words[0] === "cd" || words.join(" ") === "npm ci") inCheckout = true;
          commands.push({ doc, line: start + offset, text: part, words, creates: pathIn(comment), inCheckout });
        }
      });
    } else if (lang === "json" && /"(?:mcpServers|servers)"/.test(body)) {
      const entry = JSON.parse(body) as Record<string, Record<string, { command?: string; args?: string[] }>>;
      // An entry with a url instead of a command is a remote server: nothing to start.
      for (const server of Object.values(entry.mcpServers ?? entry.servers ?? {})) {
        if (server.command === undefined) continue;
        const words = [server.command, ...(server.args ?? [])];
        commands.push({ doc, line: start, text: words.join(" "), words, inCheckout: false });
      }
    }
  }
  text.split("\n").forEach((row, index) => {
    if (!row.startsWith("|")) return;
    for (const span of row.matchAll(/`([^`]+)`/g)) {
      if (RUNNABLE_IN_TABLES.test(span[1]!))
        commands.push({ doc, line: index + 1, text: span[1]!, words: shellWords(span[1]!), inCheckout: false });
    }
  });
  // Commands in running text (a span may wrap a line): `claude mcp add …`, `npx skills-kernel …`.
  const prose = text.replace(FENCE, (block) => block.replace(/[^\n]/g, " "));
  for (const span of prose.matchAll(/`([^`]+)`/g)) {
    const command = span[1]!.replace(/\s*\n\s*/g, " ");
    if (!/^(?:claude mcp add \S+ -- |npx skills-kernel -)/.test(command) || /[[…]/.test(command)) continue;
    commands.push({
      doc,
      line: lineOf(span.index!),
      text: command,
      words: shellWords(command),
      inCheckout: command.startsWith("npx "),
    });
  }
  return commands;
}

/** The ```ts blocks whose first line is `// FILE`: what a reader would save as FILE. */
export function docFiles(root: string, doc: string): DocFile[] {
  const text = readFileSync(join(root, doc), "utf8");
  return [...text.matchAll(FENCE)].flatMap((fence) => {
    const body = fence[2]!;
    const named = /^\/\/ ([\w.-]+\.(?:ts|mjs|js|json|ya?ml))\n/.exec(body);
    return fence[1] === "ts" && named ? [{ name: named[1]!, text: body }] : [];
  });
}

/** `cmd args   # comment` → [cmd args, comment]; a `#` inside a word (`#REF`) is not a comment. */
function splitComment(line: string): [string, string] {
  const at = line.search(/\s#\s/);
  return at === -1 ? [line, ""] : [line.slice(0, at), line.slice(at).replace(/^\s*#\s*/, "")];
}

function pathIn(comment: string): string | undefined {
  return /^(?:\.|~)\/\S+$/.test(comment.trim()) ? comment.trim() : undefined;
}

/** Words of a shell command: double and single quotes group, and are dropped. */
export function shellWords(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}
