/**
 * Billing periods: calendar months in UTC. A period is named by its start; every ledger entry
 * records the period it counts against, so usage per period is a plain group-by in any store.
 */
export interface BillingPeriod {
  readonly start: number
  /** Exclusive end: the start of the next period. */
  readonly end: number
}

export const periodOf = (ms: number): BillingPeriod => {
  const d = new Date(ms)
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
  return { start, end }
}
