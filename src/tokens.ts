import { KERNEL_TOKENS } from "./kernel/tokens.js";
import { SKILL_TOKENS } from "./skills/tokens.js";

/** Every service name plugins use: the kernel's and the skill domain's. */
export const TOKENS = { ...KERNEL_TOKENS, ...SKILL_TOKENS } as const;
