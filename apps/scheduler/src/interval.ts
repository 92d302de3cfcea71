/**
 * An interval setting in milliseconds (ORDERS_BACKGROUND_MS, NOTIFY_DISPATCH_MS) as a croner
 * pattern, or null for 0 (off). Croner ticks on whole seconds, so the interval is rounded to
 * seconds (at least one); from a minute on, to whole minutes. A step that does not divide the
 * minute (or hour) restarts at its top, as cron steps do: `*\/45` runs at :00 and :45.
 */
export function intervalPattern(ms: number): string | null {
  if (ms <= 0) return null;
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `*/${seconds} * * * * *`;
  const minutes = Math.min(59, Math.round(seconds / 60));
  return `0 */${minutes} * * * *`;
}
