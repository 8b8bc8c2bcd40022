import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

/**
 * Issue 52, item 4: an undeclared service is a compile error, not only a run-time one. The fixture
 * is compiled as the repo's own `tsc` compiles it (skills-kernel resolving to src/index.ts); its
 * `@ts-expect-error` lines must each meet an error, and nothing else may fail.
 */
const ROOT = join(import.meta.dirname, "../../..");
const FIXTURE = join(import.meta.dirname, "typed-resolve.fixture.ts");

it("a plugin's context resolves only what it declares, as the compiler sees it", () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  )!;
  const program = ts.createProgram([FIXTURE], { ...config.options, noEmit: true });
  const problems = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(FIXTURE))
    .map(
      (d) =>
        `${d.start === undefined ? "" : `line ${d.file!.getLineAndCharacterOfPosition(d.start).line + 1}: `}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
    );
  expect(problems).toEqual([]);
  // Four places the compiler must refuse, or the directives above them would be unused errors.
  expect(readFileSync(FIXTURE, "utf8").match(/^\s*\/\/ @ts-expect-error/gm)).toHaveLength(4);
});
