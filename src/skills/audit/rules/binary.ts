import type { BinaryRule } from "../types.js";

/** Executables by their first bytes: ELF, Windows PE (MZ), Mach-O (thin and fat). */
const MAGIC: readonly { bytes: readonly number[]; what: string }[] = [
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: "an ELF executable or library" },
  { bytes: [0x4d, 0x5a], what: "a Windows executable or DLL" },
  { bytes: [0xfe, 0xed, 0xfa, 0xce], what: "a Mach-O executable" },
  { bytes: [0xfe, 0xed, 0xfa, 0xcf], what: "a Mach-O executable" },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], what: "a Mach-O executable" },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], what: "a Mach-O executable" },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], what: "a Mach-O universal binary or Java class" },
];

/** A compiled program in a skill: what it does cannot be read or audited. */
export const executableBinary: BinaryRule = {
  id: "executable-binary",
  severity: "high",
  reason: "a compiled executable: what it does cannot be read",
  advice: "Ship the source and build it, or install the program from a package manager with a checked signature.",
  sources: ["ATT&CK T1204.002", "CWE-506"],
  check(bytes) {
    const found = MAGIC.find(
      ({ bytes: magic }) => magic.length <= bytes.length && magic.every((byte, i) => bytes[i] === byte),
    );
    return found && `is ${found.what}`;
  },
};
