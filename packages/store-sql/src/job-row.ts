/**
 * A jobs row decoded into the port's `Job`: camelCase fields, epoch-ms numbers whichever way the
 * driver returned them, and `cancel_requested` (0/1) as a boolean. Shared by the queue's modules.
 */
import { Schema } from "effect"
import { column, DbBoolean, DbNumber } from "./database.js"

export const JobFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  kind: Schema.String,
  payload: Schema.String,
  status: Schema.Literal("queued", "running", "completed", "failed", "cancelled"),
  priority: DbNumber,
  attempts: DbNumber,
  maxAttempts: column("max_attempts", DbNumber),
  runAt: column("run_at", DbNumber),
  workerId: column("worker_id", Schema.NullOr(Schema.String)),
  leaseExpiresAt: column("lease_expires_at", Schema.NullOr(DbNumber)),
  cancelRequested: column("cancel_requested", DbBoolean),
  result: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  createdAt: column("created_at", DbNumber),
  updatedAt: column("updated_at", DbNumber),
  startedAt: column("started_at", Schema.NullOr(DbNumber)),
  finishedAt: column("finished_at", Schema.NullOr(DbNumber))
})
