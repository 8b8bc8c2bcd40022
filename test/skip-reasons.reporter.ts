import type { Reporter, TestCase, TestModule } from "vitest/node";

/** The reason in a title, as the tests write it: `… (skipped: REASON)`, parentheses inside allowed. */
export function reasonInTitle(title: string): string | undefined {
  const start = title.indexOf("(skipped: ");
  if (start < 0) return undefined;
  let depth = 0;
  for (let i = start; i < title.length; i++) {
    if (title[i] === "(") depth++;
    else if (title[i] === ")" && --depth === 0) return title.slice(start + "(skipped: ".length, i);
  }
  return undefined;
}

function reasonOf(test: TestCase): string | undefined {
  const result = test.result();
  if (result.state === "skipped" && result.note) return result.note;
  for (let node: TestCase | TestCase["parent"] = test; node.type !== "module"; node = node.parent) {
    const reason = reasonInTitle(node.name);
    if (reason) return reason;
  }
  return undefined;
}

/**
 * Ends a run with one line per reason tests were skipped for (a tool or a folder this machine
 * lacks), so `npm test` on a fresh machine says what it did not check and why.
 */
export default class SkipReasons implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byReason = new Map<string, number>();
    let unexplained = 0;
    for (const module of modules) {
      for (const test of module.children.allTests("skipped")) {
        const reason = reasonOf(test);
        if (reason) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
        else unexplained++;
      }
    }
    if (byReason.size === 0 && unexplained === 0) return;
    const lines = [...byReason].map(([reason, count]) => ` ${String(count).padStart(4)} skipped: ${reason}`);
    if (unexplained) lines.push(` ${String(unexplained).padStart(4)} skipped by a filter, .skip or .todo`);
    process.stdout.write(`\n Skipped tests, by reason:\n${lines.join("\n")}\n`);
  }
}
