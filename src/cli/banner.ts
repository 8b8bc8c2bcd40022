import { realpathSync } from "node:fs";
import type { SkillsKernel as Kernel } from "../create-kernel.js";
import { LOG_LEVELS } from "../kernel/logger.js";
import { VERSION } from "../version.js";
import type { CliOutput } from "./io.js";

export interface BannerFacts {
  readonly transport: string;
  /** The absolute config file, when one was loaded. */
  readonly configFile?: string;
  /** Absolute `--skills-dir` folders. */
  readonly skillsDirs: readonly string[];
}

/** Logged when the server starts with no skills at all: where skills come from, in a line. */
export const NOTHING_SERVED_HINT =
  "serving no skills: install some with skills-kernel add OWNER/REPO, or serve a folder, a git repository or a catalog with --skills-dir DIR, --git OWNER/REPO or --catalog URL";

/**
 * Shown on stderr when a person starts the server in a terminal: what it serves, and the exact
 * command an MCP client should run (with absolute paths, since clients start it elsewhere).
 */
export function printBanner(kernel: Kernel, facts: BannerFacts, stderr: CliOutput): void {
  const skills = kernel.catalog.list().length;
  const diagnostics = kernel.catalog.diagnostics();
  const skipped = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - skipped;
  const sources = kernel.catalog.sources.map((s) => `${s.name} (${s.description})`);

  const args = [
    ...(facts.configFile ? ["--config", facts.configFile] : []),
    ...facts.skillsDirs.flatMap((dir) => ["--skills-dir", dir]),
  ];
  const [command = "node", ...prefix] = runtimeCommand();
  const fullArgs = [...prefix, ...args];
  const lines = [
    `skills-kernel ${VERSION}: serving ${skills} skill${skills === 1 ? "" : "s"} over ${facts.transport}`,
    `  sources: ${sources.length > 0 ? sources.join("; ") : "none"}`,
    ...(skipped + warnings > 0
      ? [
          `  ${skipped} skipped, ${warnings} warning${warnings === 1 ? "" : "s"}: ${LOG_LEVELS.indexOf(kernel.logger.level) >= LOG_LEVELS.indexOf("warn") ? "each is logged above" : "run with --log-level warn to see them"}`,
        ]
      : []),
    "",
    "An MCP client starts this command itself and talks to it over stdin/stdout:",
    `  Claude Code:    claude mcp add skills -- ${[command, ...fullArgs].map(shellQuote).join(" ")}`,
    `  Claude Desktop: in claude_desktop_config.json, "mcpServers": ${JSON.stringify({ skills: { command, args: fullArgs } })}`,
    "",
    "Press Ctrl-C to stop.",
  ];
  stderr.write(lines.join("\n") + "\n");
}

/**
 * A command that starts this same server tomorrow. npx runs a package from its cache
 * (~/.npm/_npx/<hash>/node_modules/skills-kernel), a folder npm may clean or replace at any time:
 * run from a checkout, that entry is a link to the checkout, whose real path is stable; installed
 * from the registry, `npx -y skills-kernel` fetches it again when the cache is gone (-y: an MCP
 * client cannot answer npx's install prompt).
 */
function runtimeCommand(): string[] {
  const script = realScript(process.argv[1] ?? "skills-kernel");
  if (script.split(/[\\/]/).includes("_npx")) return ["npx", "-y", "skills-kernel"];
  if ("Deno" in globalThis) return ["deno", "run", "-A", script];
  return [process.execPath, script];
}

function realScript(script: string): string {
  try {
    return realpathSync(script);
  } catch {
    return script;
  }
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
