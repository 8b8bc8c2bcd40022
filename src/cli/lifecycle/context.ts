import { UserError } from "../../kernel/errors.js";
import type { Logger } from "../../kernel/logger.js";
import { agentById, type Scope } from "../../lifecycle/agents.js";
import { checkSkillForAgents, describeProblem } from "../../lifecycle/host-check.js";
import { createKernel } from "../../create-kernel.js";
import { openSource, type OpenedSource } from "../../lifecycle/fetch.js";
import { resolveRef, type ResolvedRef } from "../../lifecycle/resolve-git.js";
import type { SourceSpec } from "../../lifecycle/source-spec.js";
import { GitError } from "../../remote/git/run.js";
import { tokenCredentials, type TokenEnv } from "../../remote/git/host-tokens.js";
import type { CliIo } from "../io.js";

/** What every lifecycle command runs with. */
export interface LifecycleContext {
  readonly cwd: string;
  /** The CLI's streams and environment. */
  readonly io: CliIo;
  readonly scope: Scope;
  readonly logger: Logger;
  /** Tokens for git over HTTPS, by host (--token-env); GITHUB_TOKEN or GH_TOKEN serve github.com. */
  readonly tokenEnv: TokenEnv;
  /** --allowed-signers: a signed skill's signer is checked against it and named in the lock. */
  readonly allowedSigners?: string;
  /** --require-signed: only skills whose signature verifies against allowedSigners are copied. */
  readonly requireSigned?: boolean;
}

/** A git spec given the token the environment holds for its host, when its URL held none. */
export function withToken(context: LifecycleContext, spec: SourceSpec): SourceSpec {
  if (spec.kind !== "git" || spec.repository.credentials) return spec;
  const credentials = tokenCredentials(spec.repository.url, context.tokenEnv);
  return credentials ? { ...spec, repository: { ...spec.repository, credentials } } : spec;
}

/**
 * A progress line on a terminal (never when CI is set or stderr is a pipe), cleared once `work`
 * settles. Only `add` without --agent asks anything, and only at a terminal.
 */
export async function withProgress<T>(io: CliIo, text: string, work: Promise<T>): Promise<T> {
  const shown = io.stderr.isTTY === true && !io.env.CI;
  if (shown) io.stderr.write(`\r\x1b[K${text}…`);
  try {
    return await work;
  } finally {
    if (shown) io.stderr.write("\r\x1b[K");
  }
}

/** Where a git source's ref points now; a git failure is the user's to see in one line. */
export async function resolveGit(context: LifecycleContext, given: SourceSpec): Promise<ResolvedRef | undefined> {
  const spec = withToken(context, given);
  if (spec.kind !== "git") return undefined;
  try {
    return await withProgress(
      context.io,
      `asking ${spec.repository.url}`,
      resolveRef(spec.repository.url, spec.repository.ref, spec.repository.credentials),
    );
  } catch (error) {
    if (error instanceof GitError) throw new UserError(`${spec.written}: ${error.message}`, 1);
    throw error;
  }
}

/** Opens a source (at `commit` for git), with a progress line. */
export function open(context: LifecycleContext, spec: SourceSpec, commit?: string): Promise<OpenedSource> {
  const catalogToken = context.io.env.SKILLS_KERNEL_CATALOG_TOKEN || undefined;
  const { allowedSigners, requireSigned } = context;
  return withProgress(
    context.io,
    `fetching ${spec.written}`,
    openSource(withToken(context, spec), {
      boot: createKernel,
      logger: context.logger,
      cwd: context.cwd,
      commit,
      catalogToken,
      allowedSigners,
      requireSigned,
    }),
  );
}

/** One line on stderr for a failure, whatever it holds. */
export function reportFailure(io: CliIo, error: unknown): void {
  if (!(error instanceof UserError)) throw error;
  io.stderr.write(`skills-kernel: ${error.message.replace(/\s*\n\s*/g, " ")}\n`);
}

/** A commit's first 12 hex digits; an artifact digest's too, after its `sha256:`. */
export function short(commit: string | undefined): string {
  if (!commit) return "-";
  return commit.startsWith("sha256:") ? commit.slice(0, 19) : commit.slice(0, 12);
}

/** A line on stderr for each agent that will not load a skill just written, with its fix. */
export async function warnUnseen(
  context: LifecycleContext,
  folder: string,
  agentIds: readonly string[],
): Promise<void> {
  const agents = agentIds.map((id) => agentById(id)).filter((agent) => agent !== undefined);
  for (const problem of await checkSkillForAgents(folder, agents, context.scope))
    context.io.stderr.write(`skills-kernel: warning: ${describeProblem(problem)}\n`);
}
