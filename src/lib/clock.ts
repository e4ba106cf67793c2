export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** the longest a setTimeout can wait (~24.8 days): a longer delay fires at once */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const DAY_MS = 86_400_000;
let cachedDay = "";
let cachedUntil = 0;

/** The UTC day usage counters belong to (quotas reset at 00:00 UTC). Asked on every invocation. */
export const utcDay = (ms: number = Date.now()): string => {
  if (ms >= cachedUntil || ms < cachedUntil - DAY_MS) {
    cachedDay = new Date(ms).toISOString().slice(0, 10);
    cachedUntil = (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
  }
  return cachedDay;
};
