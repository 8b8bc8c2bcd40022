import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SIGNATURE_NAMESPACE } from "./manifest.js";

/*
 * The crypto is the system's ssh-keygen (-Y sign, find-principals, verify, check-novalidate): the
 * SSH signature format git uses, checkable by anyone with OpenSSH and no skills-kernel.
 */

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Bytes of ssh-keygen's output kept: its answers are a line or two. */
const MAX_OUTPUT = 64 * 1024;

function sshKeygen(args: readonly string[], input: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("ssh-keygen", args, { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout = (stdout + chunk).slice(0, MAX_OUTPUT)));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(0, MAX_OUTPUT)));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error("ssh-keygen is not installed (OpenSSH 8.2 or newer signs and verifies skills)")
          : error,
      ),
    );
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => {}); // ssh-keygen may exit before reading it all (a bad key); close reports why.
    child.stdin.end(input);
  });
}

/** ssh-keygen's complaint in one line. */
function why(run: Run): string {
  return (run.stderr.trim() || run.stdout.trim() || `ssh-keygen exited with ${run.code}`).replace(/\s*\n\s*/g, "; ");
}

/** An armored SSH signature of `manifest`, made with the private key at `keyPath`. */
export async function signManifest(manifest: string, keyPath: string): Promise<string> {
  const run = await sshKeygen(["-Y", "sign", "-q", "-f", keyPath, "-n", SIGNATURE_NAMESPACE], manifest);
  if (run.code !== 0 || !run.stdout.includes("BEGIN SSH SIGNATURE")) throw new Error(`signing failed: ${why(run)}`);
  return run.stdout;
}

export type Verdict =
  | { readonly ok: true; readonly signer: string; readonly key: string }
  | { readonly ok: false; readonly reason: string; readonly key?: string };

/** "… with ED25519 key SHA256:abc…" → "ED25519 SHA256:abc…". */
function keyOf(text: string): string | undefined {
  const match = /with (\S+) key (SHA256:[A-Za-z0-9+/=]+)/.exec(text);
  return match ? `${match[1]} ${match[2]}` : undefined;
}

async function withSignatureFile<T>(signature: string, use: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "skills-kernel-sig-"));
  try {
    const path = join(dir, "SKILL.sig");
    await writeFile(path, signature, { mode: 0o600 });
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Whether `signature` is a valid signature of `manifest` by a signer in `allowedSigners`
 * (ssh-keygen's allowed signers file), in the skills namespace; and by whom.
 */
export function verifyManifest(manifest: string, signature: string, allowedSigners: string): Promise<Verdict> {
  return withSignatureFile(signature, async (sigPath) => {
    const unchecked = await sshKeygen(["-Y", "check-novalidate", "-n", SIGNATURE_NAMESPACE, "-s", sigPath], manifest);
    const key = keyOf(unchecked.stdout + unchecked.stderr);
    if (unchecked.code !== 0)
      return {
        ok: false,
        reason: `the signature does not match the skill's files (${why(unchecked)})`,
        ...(key && { key }),
      };
    const found = await sshKeygen(["-Y", "find-principals", "-s", sigPath, "-f", allowedSigners], "");
    const principals = found.stdout
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    if (found.code !== 0 || principals.length === 0) {
      return {
        ok: false,
        reason: `signed by ${key ?? "a key"} that is not an allowed signer in ${allowedSigners}`,
        ...(key && { key }),
      };
    }
    for (const principal of principals) {
      const run = await sshKeygen(
        ["-Y", "verify", "-f", allowedSigners, "-I", principal, "-n", SIGNATURE_NAMESPACE, "-s", sigPath],
        manifest,
      );
      if (run.code === 0) return { ok: true, signer: principal, key: keyOf(run.stdout + run.stderr) ?? key ?? "" };
    }
    return {
      ok: false,
      reason: `the signature by ${principals.join(", ")} does not verify for this namespace or date`,
      ...(key && { key }),
    };
  });
}
