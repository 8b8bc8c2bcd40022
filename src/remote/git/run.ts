import { spawn } from "node:child_process";
import { isIP } from "node:net";
import type { Credentials } from "./spec.js";

/** Transports a repository URL may use unless configured otherwise; ext:: and the like never. */
export const DEFAULT_PROTOCOLS = ["https", "ssh", "file"] as const;

/** A git command failed, timed out or could not start. */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

export interface GitRunOptions {
  readonly cwd?: string;
  readonly timeoutMs: number;
  readonly protocols: readonly string[];
  readonly signal?: AbortSignal;
  /** Given to git by a credential helper for their origin only, never in a URL or an argument. */
  readonly credentials?: Credentials;
  /** false: an HTTP redirect is a failure, so the host checked before a fetch is the one git reaches. */
  readonly followRedirects?: boolean;
  /** Connect to this address for the remote's host and resolve it no more (see pinRemote). */
  readonly pin?: GitPin;
}

/** Where git is to connect for a remote's host: an address checked under an AddressGuard. */
export interface GitPin {
  /** The host as the URL names it: git still sends it as Host, TLS name and host key name. */
  readonly host: string;
  readonly port: number;
  readonly address: string;
  /** http(s) is pinned through curl (CURLOPT_RESOLVE), ssh through its HostName option. */
  readonly transport: "http" | "ssh";
}

// A helper that answers git's "get" from the environment it is run with (see credentialConfig).
const CREDENTIAL_HELPER = `!f() { test "$1" = get && printf 'username=%s\\npassword=%s\\n' "$SKILLS_KERNEL_GIT_USERNAME" "$SKILLS_KERNEL_GIT_PASSWORD"; }; f`;

/** The most of a command's output kept (ls-remote of a repository with many refs). */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * Settings on every command, so nothing from a repository ever runs: no hooks (even ones a
 * template or the user's config would install), no submodules, no LFS or other smudge filter,
 * no fsmonitor, no background maintenance, and only the allowed transports.
 */
function safetyConfig(protocols: readonly string[], followRedirects: boolean): string[] {
  const settings = [
    "core.hooksPath=/dev/null",
    "init.templateDir=",
    "core.fsmonitor=false",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "filter.lfs.smudge=",
    "filter.lfs.process=",
    "filter.lfs.required=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "advice.detachedHead=false",
    "credential.interactive=false",
    "protocol.allow=never",
    ...protocols.map((protocol) => `protocol.${protocol}.allow=always`),
    ...(followRedirects ? [] : ["http.followRedirects=false"]),
  ];
  return settings.flatMap((setting) => ["-c", setting]);
}

/**
 * The credential helpers for `credentials.origin`: every one configured before is dropped (the
 * empty value), then ours answers from the environment. Scoped to the origin, so a redirect to
 * another host is given nothing.
 */
function credentialConfig(credentials: Credentials | undefined): string[] {
  if (!credentials) return [];
  return [
    `credential.${credentials.origin}.helper=`,
    `credential.${credentials.origin}.helper=${CREDENTIAL_HELPER}`,
  ].flatMap((setting) => ["-c", setting]);
}

function safetyEnv(
  protocols: readonly string[],
  credentials: Credentials | undefined,
  pin: GitPin | undefined,
): NodeJS.ProcessEnv {
  return {
    ...(credentials
      ? { SKILLS_KERNEL_GIT_USERNAME: credentials.username, SKILLS_KERNEL_GIT_PASSWORD: credentials.password }
      : {}),
    ...process.env,
    // Never ask anyone for anything: a missing credential is a failure, not a prompt.
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "true",
    SSH_ASKPASS: "true",
    GIT_SSH_COMMAND: (process.env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes") + pinSshOptions(pin),
    GIT_LFS_SKIP_SMUDGE: "1",
    // Honoured by git however it is configured, submodule and remote-helper spawns included.
    GIT_ALLOW_PROTOCOL: protocols.join(":"),
    GIT_PROTOCOL_FROM_USER: "0",
    // English messages, so errors read the same everywhere.
    LC_ALL: "C",
  };
}

/** git's settings for a pin: curl connects to the address for host:port (its Host header and TLS name stay the host's). */
function pinConfig(pin: GitPin | undefined): string[] {
  if (pin?.transport !== "http") return [];
  const address = isIP(pin.address) === 6 ? `[${pin.address}]` : pin.address;
  return ["-c", `http.curloptResolve=${pin.host}:${pin.port}:${address}`];
}

/** ssh's options for a pin: connect to the address, and look its key up under the host's name. */
function pinSshOptions(pin: GitPin | undefined): string {
  return pin?.transport === "ssh" ? ` -o HostName=${pin.address} -o HostKeyAlias=${pin.host}` : "";
}

/** Runs `git args...` and resolves to its stdout; a failure is a GitError with git's own last words. */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const child = spawn(
      "git",
      [
        ...safetyConfig(options.protocols, options.followRedirects ?? true),
        ...credentialConfig(options.credentials),
        ...pinConfig(options.pin),
        ...args,
      ],
      {
        cwd: options.cwd,
        env: safetyEnv(options.protocols, options.credentials, options.pin),
        stdio: ["ignore", "pipe", "pipe"],
        signal,
        killSignal: "SIGKILL",
      },
    );
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes <= MAX_OUTPUT_BYTES) out.push(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (err.length < 64 * 1024) err += chunk;
    });
    child.on("error", (error) => {
      const why = timeout.aborted
        ? `took longer than ${options.timeoutMs} ms`
        : (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "git is not installed (or not on PATH)"
          : error.message;
      reject(new GitError(`git ${args[0]}: ${why}`));
    });
    child.on("close", (code) => {
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      if (code === null && signal.aborted) return; // killed on purpose: the error handler reports it
      const last = err.trim().split("\n").filter(Boolean).slice(-2).join("; ");
      const redirected = options.followRedirects === false && /returned error: 30[12378]\b/.test(last);
      reject(
        new GitError(
          `git ${args[0]} failed: ${last || `exit code ${code}`}${redirected ? " (the remote redirects, which is not followed here)" : ""}`,
        ),
      );
    });
  });
}
