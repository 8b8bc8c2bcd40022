import { describe, expect, it } from "vitest";
import { auditFile } from "../../../src/skills/audit/audit.js";
import { DEVELOPMENT } from "./cases/development.js";
import { HELD_BACK } from "./cases/held-back.js";
import { payloadLines, RISK_CLASSES, type RiskyCase } from "./cases/risky-case.js";

/** Whether the audit reports a high finding on a payload line of the case. */
function found(riskyCase: RiskyCase): boolean {
  const lines = payloadLines(riskyCase);
  if (lines.length === 0) throw new Error(`case ${riskyCase.path}: no line holds its payload`);
  const findings = auditFile(riskyCase.path, new TextEncoder().encode(riskyCase.text), riskyCase.path === "SKILL.md");
  return findings.some((finding) => finding.severity === "high" && lines.includes(finding.line));
}

/** Recall held back must not fall below this: the figure docs/security.md states, rounded down. */
const HELD_BACK_RECALL_FLOOR = 0.9;

describe("the audit on risky content in every class and place", () => {
  it("has at least five phrasings per class in each half", () => {
    for (const cases of [DEVELOPMENT, HELD_BACK]) {
      for (const riskClass of RISK_CLASSES)
        expect(cases.filter((c) => c.class === riskClass).length).toBeGreaterThanOrEqual(5);
    }
  });

  it.each(DEVELOPMENT.map((c, i) => [`${c.class} #${i} in ${c.path}`, c] as const))(
    "finds %s at its payload",
    (_, riskyCase) => {
      expect(found(riskyCase)).toBe(true);
    },
  );

  it("finds the held-back half at its payload at least as often as docs/security.md states", () => {
    const missed = HELD_BACK.filter((c) => !found(c));
    const byClass = RISK_CLASSES.map((riskClass) => {
      const all = HELD_BACK.filter((c) => c.class === riskClass);
      return `${riskClass} ${all.length - missed.filter((c) => c.class === riskClass).length}/${all.length}`;
    });
    const recall = (HELD_BACK.length - missed.length) / HELD_BACK.length;
    console.log(
      `held-back recall: ${HELD_BACK.length - missed.length}/${HELD_BACK.length} (${(100 * recall).toFixed(0)}%): ${byClass.join(", ")}`,
    );
    expect(recall).toBeGreaterThanOrEqual(HELD_BACK_RECALL_FLOOR);
  });
});
