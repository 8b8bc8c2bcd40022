import type { Diagnostic, SourceSnapshot } from "../types.js";
import type { SourceStatus } from "./catalog-types.js";

/** What the catalog holds of one source. */
export interface SourceLoad {
  /** The last snapshot that loaded; undefined when none ever did. */
  readonly snapshot: SourceSnapshot | undefined;
  /** Why the latest load failed; undefined when it succeeded. */
  readonly failure: string | undefined;
}

/** How a source stands: loaded, stale (serving its last good snapshot), failed (serving nothing) or not loaded yet. */
export function sourceStatus(source: string, load: SourceLoad | undefined): SourceStatus {
  if (!load) return { source, state: "loading", skills: 0 };
  const skills = load.snapshot?.skills.length ?? 0;
  if (load.failure === undefined) return { source, state: "ok", skills };
  return { source, state: load.snapshot ? "stale" : "failed", skills, error: load.failure };
}

/** The sources that answers must warn about: stale (serving a last good snapshot) or failed (serving nothing). */
export function unavailableSources(status: readonly SourceStatus[]): readonly SourceStatus[] {
  return status.filter((s) => s.state === "stale" || s.state === "failed");
}

/** The sources whose first load had not finished: answers given now lack their skills. */
export function loadingSources(status: readonly SourceStatus[]): string[] {
  return status.filter((s) => s.state === "loading").map((s) => s.source);
}

/** A source's own diagnostics, and one for its failed load when the latest one failed. */
export function sourceDiagnostics(source: string, load: SourceLoad | undefined): Diagnostic[] {
  if (!load) return [];
  const own = [...(load.snapshot?.diagnostics ?? [])];
  if (load.failure !== undefined) {
    own.push({
      severity: load.snapshot ? "warning" : "error",
      source,
      path: "",
      code: load.snapshot ? "source-stale" : "source-failed",
      message: load.snapshot
        ? `source "${source}" failed to reload and serves its last good snapshot: ${load.failure}`
        : `source "${source}" failed to load: ${load.failure}`,
    });
  }
  return own;
}
