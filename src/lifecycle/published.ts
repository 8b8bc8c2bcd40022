import { UserError } from "../kernel/errors.js";
import { HttpClient, redact } from "../remote/http.js";
import { isDiscoveryIndex, parseDiscoveryIndex } from "../skills/discovery/discovery-reader.js";
import { decodeText, MiB } from "../skills/files/skill-files.js";

/** The http-catalog source's own bounds on one index document. */
const INDEX_LIMITS = { timeoutMs: 15_000, retries: 2, maxBytes: 16 * MiB };

/**
 * The digest a discovery index gives a skill now, read from the index alone: the artifact is not
 * downloaded, so an unchanged skill costs one request. An index that no longer lists the skill, or
 * is no longer a 0.2.0 index, is an error naming it. `catalogToken` goes to the index as add sent it.
 */
export async function publishedDigest(indexUrl: string, name: string, catalogToken?: string): Promise<string> {
  const where = redact(indexUrl);
  const http = new HttpClient({
    name: where,
    timeoutMs: INDEX_LIMITS.timeoutMs,
    retries: INDEX_LIMITS.retries,
    concurrency: 1,
    maxTotalBytes: INDEX_LIMITS.maxBytes,
    headers: {
      ...(catalogToken ? { authorization: `Bearer ${catalogToken}` } : {}),
    },
  });
  const response = await http.get(indexUrl, {
    maxBytes: INDEX_LIMITS.maxBytes,
    headers: { accept: "application/json" },
  });
  if (response.status !== 200) throw new UserError(`${where} answered HTTP ${response.status}`, 1);
  let data: unknown;
  try {
    data = JSON.parse(decodeText(response.body, false));
  } catch {
    throw new UserError(`${where} is not JSON`, 1);
  }
  if (!isDiscoveryIndex(data)) throw new UserError(`${where} is no longer an Agent Skills discovery 0.2.0 index`, 1);
  const found = parseDiscoveryIndex(
    data as Record<string, unknown>,
    indexUrl,
    indexUrl,
    Number.POSITIVE_INFINITY,
  ).entries.find((entry) => entry.name === name);
  if (!found) throw new UserError(`"${name}" is no longer in ${where}`, 1);
  return found.digest;
}
