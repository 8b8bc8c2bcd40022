import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE as SUITE, NODE_24 } from "../helpers/runtimes.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

// The official MCP conformance suite against `serve --transport http` as a user starts it: no
// config, no flag but a free port, over a catalog in the working directory's .agents/skills (the
// examples, and a skill with a subfolder so the directory checks have one to read). It needs
// Node 22 or newer (it imports fs.globSync): it runs on Node 24 from the test runtimes, whatever
// Node runs the tests.
const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const CATALOG = fileURLToPath(new URL("./catalog", import.meta.url));

/** Skills extension scenarios are not on the spec timeline: the suite runs them only when forced. */
const EXTENSION = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];

const RUNS: readonly { readonly version: string; readonly force: boolean; readonly scenarios: readonly string[] }[] = [
  {
    version: "2026-07-28",
    force: false,
    scenarios: [
      "server-stateless",
      "caching",
      "http-header-validation",
      "sep-2164-resource-not-found",
      "tools-list",
      "resources-list",
      "completion-complete",
      "dns-rebinding-protection",
      ...EXTENSION,
    ],
  },
  {
    version: "2025-11-25",
    force: true,
    scenarios: [
      "server-initialize",
      "server-session-lifecycle",
      "ping",
      "logging-set-level",
      "tools-list",
      "resources-list",
      "completion-complete",
      "dns-rebinding-protection",
      ...EXTENSION,
    ],
  },
];

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/** Run one scenario; its checks, read from the results the suite writes. */
function runScenario(
  url: string,
  version: string,
  force: boolean,
  scenario: string,
  results: string,
): Promise<{ checks: Check[]; output: string }> {
  const out = mkdtempSync(join(results, `${version}-${scenario}-`));
  const args = [
    SUITE,
    "server",
    "--url",
    url,
    "--spec-version",
    version,
    ...(force || EXTENSION.includes(scenario) ? ["--force"] : []),
    "--scenario",
    scenario,
    "-o",
    out,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_24, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      const runs = readdirSync(out).filter((name) => existsSync(join(out, name, "checks.json")));
      const checks = runs.flatMap(
        (name) => JSON.parse(readFileSync(join(out, name, "checks.json"), "utf8")) as Check[],
      );
      resolve({ checks, output });
    });
  });
}

/**
 * Checks that need the suite's own fixtures but are reported as a failure or a warning instead of
 * "Not testable", each matched by its check id and the start of its message: completion of the
 * suite's prompt test_prompt_with_arguments (an unknown prompt is -32602, as the spec says), and
 * prompts list_changed after calling its test_trigger_prompt_change tool (it takes any error but
 * -32601 as the hook having run). Completion and prompts list_changed over subscriptions/listen
 * are tested on the server's own prompts and template in test/e2e/prompts.test.ts.
 */
const NEEDS_SUITE_FIXTURE: readonly [id: string, message: string][] = [
  ["completion-complete", "Failed: Prompt test_prompt_with_arguments not found"],
  [
    "sep-2575-server-sends-prompts-list-changed-on-subscription",
    "Mutated the prompt list but no notifications/prompts/list_changed arrived",
  ],
];

/**
 * A check passes, says something for information, or is skipped by the suite as not applicable;
 * the only failures or warnings allowed are those the suite itself calls "Not testable" and those
 * above (they need its own fixture tools or prompts, which a skills server does not have).
 */
function problems(checks: readonly Check[]): string[] {
  return checks
    .filter(
      (check) =>
        !["SUCCESS", "INFO", "SKIPPED"].includes(check.status) && !check.errorMessage?.startsWith("Not testable"),
    )
    .filter(
      (check) =>
        !NEEDS_SUITE_FIXTURE.some(([id, message]) => check.id === id && check.errorMessage?.startsWith(message)),
    )
    .map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? ""}`);
}

describe("the official MCP conformance suite against `serve --transport http` (bundle on Node)", () => {
  let server: HttpServerProcess;
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "sk-conformance-"));
    const skills = join(work, "project", ".agents", "skills");
    mkdirSync(skills, { recursive: true });
    cpSync(EXAMPLES, skills, { recursive: true });
    cpSync(CATALOG, skills, { recursive: true });
    mkdirSync(join(work, "home"));
    mkdirSync(join(work, "results"));
    server = await startHttpServer([], { cwd: join(work, "project"), env: { HOME: join(work, "home") } });
  });
  afterAll(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const { version, force, scenarios } of RUNS) {
    it(`passes every check at ${version}${force ? " (--force)" : ""}: ${scenarios.join(", ")}`, {
      timeout: 600_000,
    }, async () => {
      const found: string[] = [];
      for (const scenario of scenarios) {
        const { checks, output } = await runScenario(
          server.mcpUrl.href,
          version,
          force,
          scenario,
          join(work, "results"),
        );
        if (checks.length === 0) found.push(`${scenario}: the suite ran no check\n${output.slice(-2000)}`);
        found.push(...problems(checks).map((problem) => `${scenario}: ${problem}`));
      }
      expect(found).toEqual([]);
    });
  }
});
