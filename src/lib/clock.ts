export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The UTC day usage counters belong to (quotas reset at 00:00 UTC). */
export const utcDay = (ms: number = Date.now()): string => new Date(ms).toISOString().slice(0, 10);
