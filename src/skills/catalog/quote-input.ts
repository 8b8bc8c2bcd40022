import { escapeForDisplay } from "../display-text.js";

/** Agent input echoed in a message is cut to this many characters. */
const MAX_ECHOED_CHARS = 100;

/** Input echoed in a message: quoted, escaped, and cut short if long. */
export function quote(text: string): string {
  // JSON.stringify escapes C0 controls but not bidi overrides or zero-width marks; escapeForDisplay does.
  return escapeForDisplay(
    JSON.stringify(text.length > MAX_ECHOED_CHARS ? `${text.slice(0, MAX_ECHOED_CHARS)}…` : text),
  );
}
