import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { decodeCursor } from "../../../skills/catalog/page-cursor.js";

/** The sort key a skills/list or directory cursor resumes after; one this server did not make is invalid params. */
export function decodeKeyCursor(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  const key = typeof cursor === "string" ? decodeCursor(cursor) : undefined;
  if (key === undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "the cursor is not one this server gave; start again without a cursor",
    );
  return key;
}
