import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/**
 * Opaque cursors: the sort key of the last item a page examined, so the next page starts after
 * it even when items were added or removed in between (no item is skipped or repeated because
 * another one came or went).
 */
export function encodeCursor(after: string): string {
  return Buffer.from(JSON.stringify({ after }), "utf8").toString("base64url");
}

/** The key a cursor resumes after; a cursor this server did not make is invalid params. */
export function decodeCursor(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor === "string" && cursor.length <= 8192) {
    try {
      const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      if (typeof decoded === "object" && decoded !== null && typeof (decoded as { after?: unknown }).after === "string") {
        return (decoded as { after: string }).after;
      }
    } catch {
      // Not one of ours: the error below.
    }
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, "the cursor is not one this server gave; start again without a cursor");
}

/** The index of the first of `sorted` (ascending) that comes after `key`. */
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
