import type { SkillValidation } from "../../../skills/skill-md/skill-spec.js";

/** A validation as people read it: one headline, then one line per error and per warning. */
export function renderValidation(subject: string, validation: SkillValidation): string {
  const { valid, errors, warnings } = validation;
  const headline = `${subject}: ${valid ? "valid" : "INVALID"} (${plural(errors.length, "error")}, ${plural(warnings.length, "warning")})`;
  return [
    headline,
    ...errors.map((issue) => `  error    ${issue.field}: ${issue.message}`),
    ...warnings.map((issue) => `  warning  ${issue.field}: ${issue.message}`),
  ].join("\n");
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
