/**
 * A copy of plain data (null-prototype objects, arrays, scalars) whose strings hold their own
 * characters. V8 cuts a substring as a view into the string it came from, so a 2,000-character
 * excerpt, or a name the YAML parser sliced out of the frontmatter, would keep the whole text of
 * its SKILL.md alive for as long as the skill is served: 10,000 skills kept 150 MB that way.
 */
export function ownStrings<T>(value: T): T {
  if (typeof value === "string") return ownString(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(ownStrings) as T;
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(value) as object | null);
  for (const [key, item] of Object.entries(value)) copy[ownString(key)] = ownStrings(item);
  return copy as T;
}

// Prepending a character makes a rope; slicing it flattens the rope into a new string of its own.
// Short strings are copied by V8 anyway.
function ownString(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
