import { errorMessage } from "../../../kernel/errors.js";
import { NotRegularFileError, openRegular } from "../../../lib/regular-file.js";
import type { FetchedDocument, RemoteDocuments } from "../../../remote/documents.js";

/** Where an archive is: a file on disk, or an http(s) URL read through the source's HTTP client and cache. */
export type ArchiveLocation =
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "url"; readonly url: string; readonly documents: RemoteDocuments };

/** The archive's bytes, refused past `maxBytes` before they are read; a remote one revalidated once `ttlMs` old. */
export async function readArchiveBytes(
  location: ArchiveLocation,
  maxBytes: number,
  ttlMs: number,
  signal: AbortSignal,
): Promise<FetchedDocument> {
  if (location.kind === "url") return location.documents.revalidated(location.url, ttlMs, { maxBytes, signal });
  const file = await openRegular(location.path).catch((error: unknown) => {
    throw error instanceof NotRegularFileError
      ? error
      : new Error(`cannot read ${location.path}: ${errorMessage(error)}`);
  });
  try {
    const { size } = await file.stat();
    if (size > maxBytes)
      throw new Error(`${location.path} is ${size} bytes, over the ${maxBytes} allowed (maxTotalBytes)`);
    return { body: new Uint8Array(await file.readFile()), stale: false };
  } finally {
    await file.close();
  }
}
