import type { RankedSkill } from "../../../skills/types.js";

export const MATCH_QUALITIES = ["exact", "strong", "partial", "weak"] as const;
export type MatchQuality = (typeof MATCH_QUALITIES)[number];

/**
 * What a score means (docs/search.md). 100 is reserved for a query that names the skill (bm25) or
 * matches it perfectly (fuse); the other bands are shares of the best score the query could get.
 * A strong match must also stand clear of the next result, by STRONG_MARGIN: two skills that match
 * almost equally are a choice for the agent to make (read both), not a strong answer. The bands
 * were set on the generated development set so that a top result labelled strong is right at
 * least 90 % of the time, and no request outside the catalog gets strong (docs/search.md).
 */
const STRONG_SCORE = 60;
const STRONG_MARGIN = 1.2;
const PARTIAL_SCORE = 30;

/** The label of a score; `next` is the score of the result ranked just below it, if any. */
export function matchQuality(score: number, next?: number): MatchQuality {
  if (score >= 100) return "exact";
  if (score >= STRONG_SCORE && (next === undefined || score >= STRONG_MARGIN * next)) return "strong";
  if (score >= PARTIAL_SCORE) return "partial";
  return "weak";
}

/**
 * Descriptions are cut to this many bytes of UTF-8 in search results: 180 characters of English,
 * fewer of scripts that cost more per character (and more tokens). With ids, names and scores, any
 * five results stay a short answer; read_skill gives the whole text.
 */
export const DESCRIPTION_BYTES = 180;
/** The query is echoed back cut to this many bytes: the agent wrote it and needs only to recognise it. */
const QUERY_ECHO_BYTES = 100;

function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** `text`, trimmed, in at most `maxBytes` of UTF-8: cut at a word boundary when one is near, and marked with "…". */
export function cut(text: string, maxBytes: number): string {
  const trimmed = text.trim();
  let bytes = 0;
  let end = 0;
  // The ellipsis takes 3 bytes of the budget when the text does not fit.
  let fitsWithEllipsis = 0;
  for (const char of trimmed) {
    bytes += utf8Length(char.codePointAt(0)!);
    if (bytes > maxBytes) break;
    end += char.length;
    if (bytes <= maxBytes - 3) fitsWithEllipsis = end;
  }
  if (end === trimmed.length) return trimmed;
  const head = trimmed.slice(0, fitsWithEllipsis);
  const space = head.lastIndexOf(" ");
  return `${(space > head.length * 0.6 ? head.slice(0, space) : head).replace(/[\s,;:.–—-]+$/u, "")}…`;
}

export interface SearchResult {
  id: string;
  name: string;
  description: string;
  source: string;
  score: number;
  match_quality: MatchQuality;
}

export interface SearchAnswer {
  query: string;
  total: number;
  results: SearchResult[];
}

/**
 * The answer to one search: the best `limit` of `ranked` described, and `total`, how many matched
 * in all. `ranked` may hold one result more than `limit`, so the last one described has a next
 * to stand clear of.
 */
export function toAnswer(query: string, ranked: readonly RankedSkill[], limit: number, total: number): SearchAnswer {
  const scores = ranked.map(({ score }) => Math.max(0, Math.min(100, Math.round(score))));
  return {
    query: cut(query, QUERY_ECHO_BYTES),
    total,
    results: ranked.slice(0, limit).map(({ skill }, i) => ({
      id: skill.id,
      name: skill.name,
      description: cut(skill.description, DESCRIPTION_BYTES),
      source: skill.source,
      score: scores[i]!,
      match_quality: matchQuality(scores[i]!, scores[i + 1]),
    })),
  };
}
