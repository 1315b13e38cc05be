/**
 * The engine's services wired together. Needs only the ports (Store for now); each adapter
 * package provides those and gets every service of the engine.
 */
import { Layer } from "effect"
import { Accounts } from "./accounts/accounts.js"
import { Billing } from "./billing/billing.js"
import { RateLimiter } from "./billing/rate-limiter.js"
import { Usage } from "./billing/usage.js"
import { JobQueue } from "./jobs/job-queue.js"

const base = Layer.mergeAll(Accounts.Default, Billing.Default, RateLimiter.Default, JobQueue.Default)

export type EngineServices = Accounts | Billing | RateLimiter | JobQueue | Usage

export const EngineLive = Usage.Default.pipe(Layer.provideMerge(base))
