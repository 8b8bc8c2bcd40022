import type { Logger } from "../../kernel/logger.js";
import type { Diagnostic } from "../types.js";

/**
 * Each skipped skill and each warning is logged once per process, at warn: `--log-level warn`
 * (a one-shot command's default) shows them, `error` hides them. Source failures are logged as
 * warnings where they happen.
 */
export class DiagnosticsLog {
  /** Diagnostics already logged: the same skipped skill is reported once per process, not per load. */
  readonly #reported = new Set<string>();

  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  report(diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) {
      if (d.code === "source-failed" || d.code === "source-stale") continue;
      const where = `${d.source}:${d.path || "."}`;
      const key = `${where}\0${d.code}\0${d.message}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      if (d.severity === "error") this.#logger.warn(`skipped ${where}: ${d.message}`);
      else this.#logger.warn(`${where}: ${d.message}`);
    }
  }
}
