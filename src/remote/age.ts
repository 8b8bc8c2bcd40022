/**
 * "5 minutes ago", "3 days ago": how old what a remote source serves is, when it serves an old
 * copy because its origin could not be asked. "at an unknown time" when the copy has no date.
 */
export function ageOf(since: number | undefined, now = Date.now()): string {
  if (since === undefined || !Number.isFinite(since)) return "at an unknown time";
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  const [amount, unit] =
    seconds < 90
      ? [seconds, "second"]
      : seconds < 90 * 60
        ? [Math.round(seconds / 60), "minute"]
        : seconds < 36 * 3600
          ? [Math.round(seconds / 3600), "hour"]
          : [Math.round(seconds / 86_400), "day"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"} ago`;
}
