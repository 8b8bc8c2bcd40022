import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { errorMessage } from "../kernel/errors.js";
import { skillManifest, SIGNATURE_FILE } from "../skills/signing/manifest.js";
import { signManifest, verifyManifest } from "../skills/signing/ssh-keygen.js";
import { findSkills } from "./skill-folder.js";
import type { CliIo } from "./io.js";

/** The one skill at `dir`, or the exit code and line for why there is none. */
async function skillAt(dir: string, io: CliIo) {
  const found = await findSkills(resolve(io.cwd, dir), { maxDepth: 0, maxDirectories: 1 });
  if (found === undefined || found.length !== 1 || found[0]!.folder.path !== "") {
    io.stderr.write(`skills-kernel: ${dir} is not a skill folder (a folder holding a SKILL.md)\n`);
    return undefined;
  }
  return found[0]!;
}

/**
 * `skills-kernel sign SKILL_DIR --key KEY`: writes SKILL_DIR/SKILL.sig, an SSH signature (made by
 * ssh-keygen -Y sign) of the skill's manifest. Exit 1 when signing fails, 2 for usage errors.
 */
export async function runSign(dir: string, key: string, io: CliIo): Promise<number> {
  const skill = await skillAt(dir, io);
  if (!skill) return 2;
  try {
    const signature = await signManifest(await skillManifest(skill.reader), resolve(io.cwd, key));
    const path = join(skill.folder.dir, SIGNATURE_FILE);
    await writeFile(path, signature);
    io.stdout.write(`signed ${dir}: ${path}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`skills-kernel: cannot sign ${dir}: ${errorMessage(error)}\n`);
    return 1;
  }
}

/**
 * `skills-kernel verify SKILL_DIR --allowed-signers FILE`: exit 0 when SKILL.sig is a signature of
 * the skill's current files by an allowed signer, 1 when the skill is unsigned, changed since
 * signing, or signed by someone else; 2 for usage errors.
 */
export async function runVerify(dir: string, allowedSigners: string, json: boolean, io: CliIo): Promise<number> {
  const skill = await skillAt(dir, io);
  if (!skill) return 2;
  const report = (verified: boolean, fields: Record<string, string>) => {
    if (json) io.stdout.write(`${JSON.stringify({ path: dir, verified, ...fields }, null, 2)}\n`);
    else if (verified) io.stdout.write(`${dir}: signed by ${fields.signer} (${fields.key})\n`);
    else io.stderr.write(`skills-kernel: ${dir}: ${fields.reason}\n`);
    return verified ? 0 : 1;
  };
  const signature = await skill.reader.readFile(SIGNATURE_FILE, 16 * 1024).catch(() => undefined);
  if (!signature) return report(false, { reason: `not signed (no ${SIGNATURE_FILE})` });
  try {
    const verdict = await verifyManifest(
      await skillManifest(skill.reader),
      new TextDecoder().decode(signature.bytes),
      resolve(io.cwd, allowedSigners),
    );
    return verdict.ok
      ? report(true, { signer: verdict.signer, key: verdict.key })
      : report(false, { reason: verdict.reason, ...(verdict.key && { key: verdict.key }) });
  } catch (error) {
    return report(false, { reason: errorMessage(error) });
  }
}
