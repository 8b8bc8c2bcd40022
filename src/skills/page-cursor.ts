// Long lists (list_skills, resources/list) come in pages. A cursor is opaque to clients, as MCP
// asks: the offset of the next page, base64url-encoded with a version tag so that a cursor from
// elsewhere, or a hand-made one, is refused rather than misread. A catalog that changes between
// pages may shift an entry by a page boundary; the next full listing is exact again.

const TAG = "sk1:";

export function encodeCursor(offset: number): string {
  return Buffer.from(`${TAG}${offset}`).toString("base64url");
}

/** The offset a cursor stands for, or undefined when it is not one this server gave. */
export function decodeCursor(cursor: string): number | undefined {
  if (cursor.length > 64) return undefined;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!text.startsWith(TAG)) return undefined;
  const digits = text.slice(TAG.length);
  if (!/^(?:0|[1-9][0-9]{0,8})$/.test(digits)) return undefined;
  return Number(digits);
}

/** One page of `items` from `offset`, and the cursor of the next page when there is one. */
export function page<T>(items: readonly T[], offset: number, size: number): { items: T[]; nextCursor?: string } {
  const end = offset + size;
  return { items: items.slice(offset, end), ...(end < items.length ? { nextCursor: encodeCursor(end) } : {}) };
}
