import { createHash } from "node:crypto";
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { Log, ReportingDescriptor, Result } from "sarif";

/*
 * One SARIF 2.1.0 log of one tool's run, in the subset GitHub code scanning reads: rules with
 * their help, and results that each point at a line of a file below the folder the log is
 * uploaded from. Any command that reports on files (audit, doctor) writes its SARIF here.
 */

export type SarifLevel = "error" | "warning" | "note";

/** A rule as a reviewer's tool shows it beside each of its results. */
export interface SarifRule {
  readonly id: string;
  /** The level of its results unless a result says otherwise. */
  readonly level: SarifLevel;
  /** One line: what it reports. */
  readonly summary: string;
  /** A few sentences: what it looks for and why that matters. */
  readonly description: string;
  /** What to do about a result, as plain text and as markdown (links allowed). */
  readonly help: { readonly text: string; readonly markdown: string };
  readonly helpUri?: string;
  /** GitHub's `security-severity`, 0.0 to 10.0: ranks security results as critical, high, medium or low. */
  readonly securitySeverity?: number;
  /** GitHub reads "security" and "external/cwe/cwe-NNN" among them. */
  readonly tags?: readonly string[];
}

export interface SarifResult {
  readonly ruleId: string;
  readonly level?: SarifLevel;
  readonly message: string;
  /**
   * Relative to the folder the log is read from, `/`-separated, as on disk (the writer escapes it);
   * or absolute, for a file outside that folder (a home folder's skills), written as a file:// URI.
   */
  readonly file: string;
  /** Counted from 1; a result about a whole file is placed at its first line, as code scanning needs a line. */
  readonly line?: number;
  /**
   * What makes this result the same one in the next run wherever its line moves (the text it
   * quotes, never a line number): hashed, with the file and rule, into `partialFingerprints`.
   */
  readonly identity: string;
}

export interface SarifTool {
  readonly name: string;
  readonly version: string;
  readonly informationUri?: string;
  readonly rules: readonly SarifRule[];
}

/**
 * The key of our fingerprint. GitHub computes its own `primaryLocationLineHash` from the file
 * when it is absent and warns when a tool's differs, so that key is left to it.
 */
export const FINGERPRINT_KEY = "identityHash/v1";

/** Half a surrogate pair: a name no URI can spell, written as U+FFFD (encodeURIComponent throws on it). */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * A path as a relative URI reference: each segment percent-encoded, so `#`, `?`, `%`, `:` and
 * spaces in a file's name stay part of its path instead of starting a fragment, a query or a scheme.
 */
export function sarifUri(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment.replace(LONE_SURROGATE, "\uFFFD")))
    .join("/");
}

function ruleDescriptor(rule: SarifRule): ReportingDescriptor {
  return {
    id: rule.id,
    shortDescription: { text: rule.summary },
    fullDescription: { text: rule.description },
    help: { text: rule.help.text, markdown: rule.help.markdown },
    ...(rule.helpUri !== undefined && { helpUri: rule.helpUri }),
    defaultConfiguration: { level: rule.level },
    properties: {
      ...(rule.securitySeverity !== undefined && { "security-severity": rule.securitySeverity.toFixed(1) }),
      tags: [...(rule.tags ?? [])],
    },
  };
}

/** The SARIF log of one run of `tool`. A result of a rule the tool does not list is a bug: it throws. */
export function sarifLog(tool: SarifTool, results: readonly SarifResult[]): Log {
  const ruleIndex = new Map(tool.rules.map((rule, index) => [rule.id, index]));
  // Identical results in one file (a line repeated) are told apart by their order.
  const seen = new Map<string, number>();
  const sarifResults = results.map((result): Result => {
    const index = ruleIndex.get(result.ruleId);
    if (index === undefined)
      throw new Error(`SARIF result of rule "${result.ruleId}", which ${tool.name} does not list`);
    const outside = isAbsolute(result.file);
    const uri = outside ? pathToFileURL(result.file).href : sarifUri(result.file);
    const key = JSON.stringify([result.ruleId, uri, result.identity]);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const fingerprint = createHash("sha256").update(`${key}\n${occurrence}`).digest("hex").slice(0, 32);
    return {
      ruleId: result.ruleId,
      ruleIndex: index,
      level: result.level ?? tool.rules[index]!.level,
      message: { text: result.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: outside ? { uri } : { uri, uriBaseId: "%SRCROOT%" },
            region: { startLine: Math.max(1, result.line ?? 1) },
          },
        },
      ],
      partialFingerprints: { [FINGERPRINT_KEY]: fingerprint },
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            ...(tool.informationUri !== undefined && { informationUri: tool.informationUri }),
            rules: tool.rules.map(ruleDescriptor),
          },
        },
        results: sarifResults,
      },
    ],
  };
}
