/**
 * Fixtures shared by the contract suites: a fixed clock origin, unique ids, and short ways to make
 * a team, enqueue a job and claim one job kind at a given time.
 */
import type { NewJob, StoreService, Team } from "@gleaner/core"
import { randomUUID } from "node:crypto"

export const T0 = 1_700_000_000_000
export const LEASE_MS = 30_000

export const uid = () => randomUUID()

export const makeTeam = (store: StoreService, overrides: Partial<Team> = {}) =>
  store.teams.create({ id: uid(), name: `team-${uid()}`, plan: "free", maxConcurrency: 10, createdAt: T0, ...overrides })

export const enqueue = (store: StoreService, teamId: string, kind: string, overrides: Partial<NewJob> = {}) =>
  store.jobs.enqueue({ id: uid(), teamId, kind, payload: `{"n":1}`, runAt: T0, createdAt: T0, ...overrides })

export const claimAt = (store: StoreService, kind: string, now: number, options: { workerId?: string; limit?: number } = {}) =>
  store.jobs.claim({ workerId: options.workerId ?? "w1", now, leaseMs: LEASE_MS, limit: options.limit ?? 10, kinds: [kind] })
