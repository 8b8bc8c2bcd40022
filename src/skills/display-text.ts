// Text from a request or a skill folder is echoed in errors and warnings that people and agents
// read. Control characters and invisible bidirectional marks there can hide or reorder what is
// shown (a right-to-left override makes "exe.md" read as "dm.exe"), so they are shown escaped.

// C0 and C1 controls, DEL, zero-width and bidirectional formatting marks, line and paragraph separators.
const UNSAFE_CLASS =
  "[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff]";
const UNSAFE_CHARACTER = new RegExp(UNSAFE_CLASS);
const EVERY_UNSAFE_CHARACTER = new RegExp(UNSAFE_CLASS, "g");

/** `text` with every control or invisible formatting character written as \uXXXX (tab, newline as \t, \n). */
export function escapeForDisplay(text: string): string {
  return text.replace(EVERY_UNSAFE_CHARACTER, (character) => {
    if (character === "\t") return "\\t";
    if (character === "\n") return "\\n";
    if (character === "\r") return "\\r";
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** Whether `text` holds a character escapeForDisplay would escape. */
export function hasUnsafeCharacter(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}
