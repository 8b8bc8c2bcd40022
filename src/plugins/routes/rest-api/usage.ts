import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { SkillUsage } from "../../../skills/usage/report.js";
import { isOperator, json, restError, type HttpOptions, type RouteCaller } from "../../transports/http/index.js";

/** The span of a report when `days` is not given. */
const DEFAULT_DAYS = 30;

/**
 * `GET /v1/usage?days=N[&group=G]`: the usage plugin's figures for operators alone, as the caller
 * may see the catalog (a skill it cannot see is not in them). One group's figures with `group`.
 */
export async function usageAnswer(
  query: URLSearchParams,
  caller: RouteCaller,
  usage: SkillUsage | undefined,
  http: HttpOptions | undefined,
  logger: Logger,
): Promise<Response> {
  if (!usage) return restError(404, 'this server counts no usage: add the "usage" plugin to its config');
  if (!isOperator(http, caller, usage.operatorScope)) {
    return restError(
      403,
      http?.oauth !== undefined
        ? `usage figures are for operators: a token holding the scope ${usage.operatorScope}`
        : "usage figures are for operators: serve with an auth token (--auth-token) and send it",
    );
  }
  const given = query.get("days");
  const days = given === null ? Math.min(DEFAULT_DAYS, usage.retentionDays) : Number(given);
  if (given !== null && (!/^\d+$/.test(given) || days < 1 || days > usage.retentionDays))
    return restError(400, `days must be a whole number from 1 to ${usage.retentionDays} (the days kept)`);
  const group = query.get("group");
  if (group === "") return restError(400, "group needs a value, e.g. groups:platform");
  try {
    const report = await usage.report({ days, catalog: caller.catalog, ...(group !== null && { group }) });
    return json(200, report, { "cache-control": "no-store" });
  } catch (error) {
    logger.warn(`cannot read the usage figures: ${errorMessage(error)}`);
    return restError(503, "the usage figures cannot be read now; try again later", { "retry-after": "5" });
  }
}
