import { posix } from "node:path";

const MIME_TYPES: Readonly<Record<string, string>> = {
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".csv": "text/csv",
  ".html": "text/html",
  ".xml": "application/xml",
  ".py": "text/x-python",
  ".js": "text/javascript",
  ".sh": "application/x-sh",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
};

/** The MIME type a skill file's name implies, or undefined for an extension not in the table. */
export function mimeTypeByName(path: string): string | undefined {
  return MIME_TYPES[posix.extname(path).toLowerCase()];
}
