import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The TypeScript blocks of the docs a plugin author copies from type-check against src/, so they
 * cannot rot as the API moves. Each block becomes a file of a virtual package inside the repo (so
 * vitest, the MCP client and zod resolve from its node_modules, and `skills-kernel` maps to
 * src/index.ts, `skills-kernel/testing` to src/testing/index.ts); a block right after a line naming a file ("`src/index.ts`:") gets that name, so
 * a test block can import the plugin block before it.
 */
const ROOT = join(import.meta.dirname, "../..");
const DOCS = ["README.md", "docs/plugins.md"];

interface Snippet {
  readonly doc: string;
  readonly line: number;
  readonly file: string;
  readonly code: string;
}

function snippets(doc: string): Snippet[] {
  const lines = readFileSync(join(ROOT, doc), "utf8").split("\n");
  const found: Snippet[] = [];
  const folder = join(ROOT, ".doc-snippets", doc.replace(/[/.]/g, "-"));
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const end = lines.indexOf("```", i + 1);
    const named = /^`((?:src|test)\/[\w./-]+\.ts)`:\s*$/.exec(lines[i - 2] ?? lines[i - 1] ?? "")?.[1];
    found.push({
      doc,
      line: i + 1,
      file: join(folder, named ?? `snippet-${i + 1}.ts`),
      code: lines.slice(i + 1, end).join("\n"),
    });
    i = end;
  }
  return found;
}

/** Type errors of every snippet of one doc, compiled together as one package. */
function typeErrors(blocks: readonly Snippet[]): string[] {
  const virtual = new Map(blocks.map((block) => [block.file, block.code]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    baseUrl: ROOT,
    paths: { "skills-kernel": ["./src/index.ts"], "skills-kernel/testing": ["./src/testing/index.ts"] },
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const folders = [...virtual.keys()].map((file) => dirname(file));
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.directoryExists = (name) =>
    folders.some((folder) => folder === name || folder.startsWith(`${name}/`)) ||
    (directoryExists?.call(host, name) ?? true);
  host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, version, ...rest) => {
    const code = virtual.get(name);
    return code === undefined
      ? getSourceFile.call(host, name, version, ...rest)
      : ts.createSourceFile(name, code, version, true);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  // Only the snippets' own diagnostics: src/ has its own type-check (tsc --noEmit).
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...[...virtual.keys()].flatMap((file) => {
      const source = program.getSourceFile(file)!;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  return diagnostics.map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const block = blocks.find((b) => b.file === diagnostic.file?.fileName);
    if (!block || diagnostic.start === undefined) return text;
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    return `${block.doc}:${block.line + 1 + line}: ${text}`;
  });
}

describe("the docs' TypeScript snippets", () => {
  it("type-check against src, and a broken one is reported with its doc and line", { timeout: 180_000 }, () => {
    const blocks = DOCS.flatMap(snippets);
    for (const doc of DOCS) expect(blocks.filter((block) => block.doc === doc).length, doc).toBeGreaterThan(0);
    // Checked in the same program (one type-check of src/ is slow enough): proof that the check can fail.
    const broken: Snippet = {
      doc: "broken.md",
      line: 10,
      file: join(ROOT, ".doc-snippets", "broken.ts"),
      code: 'import { bootKernel } from "skills-kernel";\nbootKernel();',
    };
    expect(typeErrors([...blocks, broken])).toEqual([
      "broken.md:11: Module '\"skills-kernel\"' has no exported member 'bootKernel'.",
    ]);
  });
});
