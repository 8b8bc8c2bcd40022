/*
 * A search's text as a miss keeps it: people type what they have at hand into a search, a token or
 * an address included, so what is stored is cut short and masked first. These are the obvious
 * forms only (docs/security.md#usage); `recordQueries: false` keeps no text at all.
 */

/** The most characters of a query kept. */
export const MAX_QUERY_CHARS = 200;

/** Read at most this much of what was sent: the masks look at no more. */
const MAX_READ_CHARS = 4 * MAX_QUERY_CHARS;

/** Each pattern's matches become its mask. Prefixed tokens first: the generic ones would leave their prefix. */
const SECRETS: readonly (readonly [RegExp, string])[] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, "[key]"],
  // user:password@ in a URL
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, "$1[secret]@"],
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu, "[email]"],
  // JSON Web Tokens, and the tokens of well-known services by their prefixes
  [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, "[token]"],
  [
    /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|xox[abprs]-[\w-]{10,}|(?:sk|pk|rk)[-_](?:live_|test_|proj-|ant-)?[\w-]{16,}|npm_[A-Za-z0-9]{30,}|AIza[\w-]{30,}|(?:AKIA|ASIA)[0-9A-Z]{16})\b/g,
    "[token]",
  ],
  // Authorization: Bearer …, and name=value for the names secrets go by
  [/\b(bearer|basic|token)\s+[\w\-.~+/]{8,}=*/gi, "$1 [token]"],
  [
    /\b((?:api|access|secret|private|client)[_-]?(?:key|token|secret)|password|passwd|pwd|secret|token|auth)(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/gi,
    "$1$2[secret]",
  ],
  // Anything long that mixes letters and digits with no space: hex digests, base64 keys.
  [/(?<![\w+/=-])(?=[\w+/=-]*\d)(?=[\w+/=-]*[A-Za-z])[\w+/=-]{32,}/g, "[secret]"],
];

/** Controls, format characters and line breaks: never part of what is kept. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Obvious secrets in `text` replaced by what they are: `[email]`, `[token]`, `[secret]`, `[key]`. */
export function maskSecrets(text: string): string {
  let masked = text;
  for (const [pattern, mask] of SECRETS) masked = masked.replace(pattern, mask);
  return masked;
}

/**
 * A query as misses are counted and kept: secrets masked, then NFKC, lower case, one space between
 * words, at most MAX_QUERY_CHARS characters (never half a character). Two queries that differ only
 * in case or spacing are one miss. "" when nothing is left.
 */
export function missText(query: string): string {
  const read = cutChars(query, MAX_READ_CHARS);
  const flat = maskSecrets(read.normalize("NFKC")).replace(INVISIBLE, " ").toLowerCase().replace(/\s+/g, " ").trim();
  return cutChars(flat, MAX_QUERY_CHARS).trimEnd();
}

/** At most `max` characters of `text`, never half a surrogate pair. */
function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
