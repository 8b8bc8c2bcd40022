import { ProtocolError, ProtocolErrorCode, type Resource } from "@modelcontextprotocol/server";
import { DIRECTORY_MIME_TYPE } from "@modelcontextprotocol/server/ext/skills";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { mimeTypeByName } from "../../../skills/files/mime-types.js";
import { FETCHABLE_FILES_LIMIT, withoutSecrets } from "../../../skills/files/skill-files.js";
import { SKILL_DOCUMENT, skillFileUri, type SkillLocation } from "../../../skills/files/skill-uri.js";
import { encodeCursor, indexAfter } from "../../../skills/catalog/page-cursor.js";
import { decodeKeyCursor } from "./cursor.js";

/** Children per page of a directory read. */
export const DIRECTORY_PAGE_SIZE = 200;

export interface DirectoryPage {
  readonly resources: Resource[];
  readonly nextCursor?: string;
}

/**
 * The direct children of a skill folder or one of its sub-folders: the files resources/read
 * serves there (the first FETCHABLE_FILES_LIMIT of the skill's, as for any read, less those named
 * like credentials unless they are served too) and the
 * folders holding any of them (mimeType inode/directory). A file, or a folder holding no served
 * file, is no directory resource: -32602.
 */
export async function readDirectory(
  catalog: CatalogView,
  { mapped, path }: SkillLocation,
  uri: string,
  cursor: unknown,
  includeSecretFiles: boolean,
  signal: AbortSignal,
): Promise<DirectoryPage> {
  const after = decodeKeyCursor(cursor);
  const listing = withoutSecrets(
    await catalog.listFiles(mapped.skill, FETCHABLE_FILES_LIMIT, signal),
    includeSecretFiles,
  );
  const files = [...listing.files];
  if (path === "") files.push({ path: SKILL_DOCUMENT, size: (await catalog.readDocument(mapped.skill, 0)).size });
  if (path === SKILL_DOCUMENT || files.some((file) => file.path === path)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} is not a directory resource`, { uri });
  }

  const prefix = path === "" ? "" : `${path}/`;
  const children = new Map<string, Resource>();
  for (const file of files) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf("/");
    const name = slash === -1 ? rest : rest.slice(0, slash);
    if (children.has(name)) continue;
    const childUri = skillFileUri(mapped, prefix + name);
    const mimeType = slash === -1 ? mimeTypeByName(name) : DIRECTORY_MIME_TYPE;
    children.set(name, {
      uri: childUri,
      name,
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(slash === -1 ? { size: file.size } : {}),
    });
  }
  if (children.size === 0 && path !== "")
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no directory is served at ${uri}`, { uri });

  const sorted = [...children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const start = indexAfter(sorted, (child) => child.name, after);
  const page = sorted.slice(start, start + DIRECTORY_PAGE_SIZE);
  const more = start + page.length < sorted.length;
  return { resources: page, ...(more ? { nextCursor: encodeCursor(page.at(-1)!.name) } : {}) };
}
