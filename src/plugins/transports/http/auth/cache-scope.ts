import type { WholeCatalog } from "../../../../skills/catalog/catalog.js";
import type { HttpOptions } from "../options.js";

/**
 * True when an answer may be for one caller only, so it must never sit in a shared cache: with a
 * token (static or OAuth), or when some source is visible to some callers only (even an
 * anonymous caller's answer is then a filtered one).
 */
export function personalAnswers(
  options: Pick<HttpOptions, "authToken" | "oauth">,
  catalog: WholeCatalog | undefined,
): boolean {
  return options.authToken !== undefined || options.oauth !== undefined || catalog?.restricted === true;
}
