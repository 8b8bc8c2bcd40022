// Long lists (list_skills, resources/list, skills/list, directory reads) come in pages. A cursor is
// opaque to clients, as MCP asks: the position of the next page (an offset, or the sort key the
// last page ended at), base64url-encoded with a version tag so that a cursor from elsewhere, or a
// hand-made one, is refused rather than misread. This is the one codec every pager uses.

const TAG = "sk1:";
/** Longer cursors are refused unread: a sort key is a path or a URI, never this long. */
const MAX_CURSOR_CHARS = 8192;

/** The cursor for `position`: an offset, or the sort key after which the next page starts. */
export function encodeCursor(position: number | string): string {
  return Buffer.from(`${TAG}${position}`).toString("base64url");
}

/** The position a cursor stands for, or undefined when it is not one this server gave. */
export function decodeCursor(cursor: string): string | undefined {
  if (cursor.length > MAX_CURSOR_CHARS) return undefined;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  return text.startsWith(TAG) ? text.slice(TAG.length) : undefined;
}

/** The offset a cursor of `page` stands for, or undefined when it is not one. */
export function decodeOffset(cursor: string): number | undefined {
  const digits = decodeCursor(cursor);
  return digits !== undefined && /^(?:0|[1-9][0-9]{0,8})$/.test(digits) ? Number(digits) : undefined;
}

/**
 * One page of `items` from `offset`, and the cursor of the next page when there is one. A catalog
 * that changes between pages may shift an entry by a page boundary; the next full listing is exact.
 */
export function page<T>(items: readonly T[], offset: number, size: number): { items: T[]; nextCursor?: string } {
  const end = offset + size;
  return { items: items.slice(offset, end), ...(end < items.length ? { nextCursor: encodeCursor(end) } : {}) };
}

/**
 * The index of the first of `sorted` (ascending by `keyOf`) that comes after `key`: a page that
 * resumes after a sort key skips and repeats nothing when items come or go in between.
 */
export function indexAfter<T>(sorted: readonly T[], keyOf: (item: T) => string, key: string | undefined): number {
  if (key === undefined) return 0;
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyOf(sorted[middle]!) <= key) low = middle + 1;
    else high = middle;
  }
  return low;
}
