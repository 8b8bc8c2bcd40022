import type { CatalogSkill } from "../catalog/catalog-types.js";
import type { CatalogView } from "../catalog/catalog-view.js";
import type { CatalogSource, SkillFileContent, SkillFileListing } from "../types.js";

/** One skill's files, however they are reached (a source, the catalog, a folder on disk): what the audit and signature checks read. */
export interface SkillReader {
  readDocument(maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
  listFiles(limit: number, signal?: AbortSignal): Promise<SkillFileListing>;
  readFile(path: string, maxBytes: number, signal?: AbortSignal): Promise<SkillFileContent>;
}

/** A reader over one skill of a catalog. */
export function catalogReader(catalog: CatalogView, skill: CatalogSkill): SkillReader {
  return {
    readDocument: (maxBytes, signal) => catalog.readDocument(skill, maxBytes, signal),
    listFiles: (limit, signal) => catalog.listFiles(skill, limit, signal),
    readFile: (path, maxBytes, signal) => catalog.readFile(skill, path, maxBytes, signal),
  };
}

/** A reader over one skill of a source, by its path. */
export function sourceReader(source: CatalogSource, path: string): SkillReader {
  return {
    readDocument: (maxBytes, signal) => source.readDocument(path, maxBytes, signal),
    listFiles: (limit, signal) => source.listFiles(path, limit, signal),
    readFile: (file, maxBytes, signal) => source.readFile(path, file, maxBytes, signal),
  };
}
