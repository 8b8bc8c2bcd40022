import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Jiti } from "jiti";
import { readRegularFile } from "../lib/regular-file.js";

export type ModuleNamespace = Readonly<Record<string, unknown>>;

const TYPESCRIPT_FILE = /\.[cm]?ts$/;

/**
 * Bun and Deno run TypeScript themselves, and so does Node with type stripping (22.18+, 23.6+, or
 * 22.6+ with a flag). Older Node needs a transpiler.
 */
const runtimeImportsTypeScript =
  "Deno" in globalThis ||
  Boolean(process.versions.bun) ||
  Boolean((process.features as { typescript?: unknown }).typescript);

/**
 * Node's type stripping refuses TypeScript under node_modules and syntax that is not erasable
 * (enums, namespaces, parameter properties); jiti transpiles those instead.
 */
const TYPE_STRIPPING_LIMITS = new Set([
  "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING",
  "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
]);

/**
 * Imports a JavaScript or TypeScript file and returns its module namespace, in Node's shape on
 * every runtime: a CommonJS module's `module.exports` is the `default` export.
 */
export async function importModule(file: string): Promise<ModuleNamespace> {
  const typescript = TYPESCRIPT_FILE.test(file);
  if (typescript && !runtimeImportsTypeScript) return importWithJiti(file);
  try {
    return (await import(pathToFileURL(file).href)) as ModuleNamespace;
  } catch (error) {
    if (typescript && TYPE_STRIPPING_LIMITS.has((error as { code?: unknown }).code as string)) {
      return importWithJiti(file);
    }
    throw error;
  }
}

// jiti and the Babel it carries are slow to load: only TypeScript on a runtime that cannot run
// it pays for them. One per process, as Node's own module cache is: it holds no kernel's state.
let jiti: Promise<Jiti> | undefined;

function loadJiti(): Promise<Jiti> {
  // require(), not import(): importing CommonJS from ESM makes Node scan the whole of jiti's
  // large file for export names first, which costs more than the rest of loading it.
  jiti ??= Promise.resolve().then(() => {
    const { createJiti } = createRequire(import.meta.url)("jiti") as typeof import("jiti");
    // Without interop, jiti hands back raw CommonJS exports, so ES modules and CommonJS ones can be
    // told apart below (with it, a module without a default export looks like its own default).
    return createJiti(import.meta.url, { interopDefault: false });
  });
  return jiti;
}

async function importWithJiti(file: string): Promise<ModuleNamespace> {
  let exports: unknown;
  try {
    exports = await (await loadJiti()).import(file);
  } catch (error) {
    throw fromJitiParseError(error);
  }
  // jiti runs everything as CommonJS: a transpiled ES module is marked __esModule and carries its
  // exports as properties; a genuine CommonJS module's exports are its default export.
  if ((exports as { __esModule?: unknown } | null)?.__esModule) return exports as ModuleNamespace;
  return { default: exports };
}

/**
 * jiti reports a syntax error as `ParseError: <message> \n <file>:<line>:<column>`, with Babel's
 * zero-based column. Give it the `position` Bun's syntax errors carry, one-based like editors show.
 */
function fromJitiParseError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const match = /^\w+: (.*?)\s*\n (.+):(\d+):(\d+)$/s.exec(error.message);
  if (!match || match[3] === "0") return error;
  const [, message = "", file = "", line = "", column = ""] = match;
  return Object.assign(new SyntaxError(message, { cause: error }), {
    position: { file, line: Number(line), column: Number(column) + 1 },
  });
}

/**
 * Node's SyntaxError from import() says what is wrong but not where. jiti's transform (Babel)
 * parses the file without running it and reports the place: give the error that `position`.
 */
export async function locateSyntaxError(error: unknown, file: string): Promise<unknown> {
  if (
    !(error instanceof SyntaxError) ||
    (error as { position?: unknown }).position ||
    /\n\s+at \S+:\d+:\d+/.test(error.message)
  )
    return error;
  try {
    const output = (await loadJiti()).transform({
      source: await readRegularFile(file, "utf8"),
      filename: file,
      ts: TYPESCRIPT_FILE.test(file),
    });
    // A file that does not parse becomes a module that throws: `exports.__JITI_ERROR__ = {...}`.
    const reported = /^exports\.__JITI_ERROR__ = (\{.*\})$/m.exec(output)?.[1];
    if (!reported) return error;
    const { line, column } = JSON.parse(reported) as { line?: unknown; column?: unknown };
    if (typeof line !== "number" || typeof column !== "number" || line < 1) return error;
    return Object.assign(new SyntaxError(error.message, { cause: error }), {
      position: { file, line, column: column + 1 },
    });
  } catch {
    return error;
  }
}

interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

const ANSI_ESCAPE = /\x1b\[[0-9;]*m/g;
/** Deno appends where an import failed: `    at file:///x/plugins.config.ts:2:11`. */
const DENO_LOCATION = /^\s+at (\S+):(\d+):(\d+)$/;
/** Deno quotes the offending source in a code frame: `  |`, `2 | const x = ;`, `  |   ~`. */
const CODE_FRAME_LINE = /^\s*\d*\s*\|/;

/**
 * Why importing `file` failed, as one line, from whatever the runtime threw. Each runtime reports
 * syntax errors its own way (Bun: a `position` property; Deno: a code frame and an `at` line inside
 * the message; Node: no location at all; jiti: see fromJitiParseError), some messages carry ANSI
 * colours, and require() appends its require stack.
 */
export function describeImportError(error: unknown, file: string): string {
  if (!(error instanceof Error)) return oneLine(String(error));
  let position = (error as { position?: SourcePosition | null }).position ?? undefined;
  const kept: string[] = [];
  for (const line of error.message
    .replace(ANSI_ESCAPE, "")
    .replace(/\nRequire stack:[^]*$/, "")
    .split("\n")) {
    const at = DENO_LOCATION.exec(line);
    if (at) position ??= { file: at[1] ?? "", line: Number(at[2]), column: Number(at[3]) };
    else if (!CODE_FRAME_LINE.test(line)) kept.push(line);
  }
  let summary = oneLine(kept.join("\n"));
  const syntax = error.name === "SyntaxError" || error.name === "BuildMessage" || summary.startsWith("SyntaxError: ");
  summary = summary.replace(/^SyntaxError: /, "");

  let where = "";
  if (position) {
    const positionFile = position.file.startsWith("file:") ? fileURLToPath(position.file) : position.file;
    where = `${positionFile === file ? "" : `${positionFile}:`}${position.line}:${position.column}`;
  }
  if (syntax) return where ? `syntax error at ${where}: ${summary}` : `syntax error: ${summary}`;
  return where ? `${summary} (at ${where})` : summary;
}

/** Collapses a possibly multi-line message onto one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
