/**
 * The pages of crawls and batch scrapes. A page is one row per (job, key) from the moment it is
 * found: `pending` is the frontier, `done`/`failed` the result, `blocked` a URL robots.txt
 * refused. Adding is insert-or-ignore and settling only moves a pending row, so a page found twice
 * or scraped again after a crash still counts once.
 */
import type { JobPageOutcome, NewJobPage, StoreService } from "@gleaner/core"
import { Effect, Schema } from "effect"
import { column, type Db, DbNumber, decodeRows } from "./database.js"

const JobPageFromRow = Schema.Struct({
  jobId: column("job_id", Schema.String),
  teamId: column("team_id", Schema.String),
  key: column("page_key", Schema.String),
  url: Schema.String,
  depth: DbNumber,
  status: Schema.Literal("pending", "done", "failed", "blocked"),
  document: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  createdAt: column("created_at", DbNumber),
  finishedAt: column("finished_at", Schema.NullOr(DbNumber))
})

const decodePages = decodeRows(JobPageFromRow)
const decodeKeys = decodeRows(Schema.Struct({ page_key: Schema.String }))
const decodeCounts = decodeRows(Schema.Struct({ status: Schema.String, count: DbNumber }))

/** Rows per INSERT: well under SQLite's 32,766 bound parameters at 9 columns a row. */
const insertBatch = 500

export const makeJobPages = ({ execute, query, transaction }: Db): StoreService["jobPages"] => ({
  add: Effect.fnUntraced(function*(jobId: string, teamId: string, pages: ReadonlyArray<NewJobPage>, now: number) {
    const added: Array<string> = []
    yield* transaction(Effect.forEach(chunks(pages, insertBatch), (chunk) =>
      Effect.map(
        execute(query.insertInto("job_pages").values(chunk.map((page) => ({
          job_id: jobId,
          team_id: teamId,
          page_key: page.key,
          url: page.url,
          depth: page.depth,
          status: page.status ?? "pending",
          document: null,
          error: page.error ?? null,
          created_at: now,
          finished_at: page.status === "blocked" ? now : null
        }))).onConflict((oc) => oc.columns(["job_id", "page_key"]).doNothing()).returning("page_key")),
        (rows) => { for (const row of rows) added.push(row.page_key) }
      ), { discard: true }))
    return added
  }),
  pending: Effect.fnUntraced(function*(jobId: string, limit: number) {
    return yield* decodePages(yield* execute(
      query.selectFrom("job_pages").selectAll().where("job_id", "=", jobId).where("status", "=", "pending")
        .orderBy("depth").orderBy("created_at").orderBy("page_key").limit(limit)
    ))
  }),
  keys: Effect.fnUntraced(function*(jobId: string) {
    const rows = yield* decodeKeys(yield* execute(query.selectFrom("job_pages").select("page_key").where("job_id", "=", jobId)))
    return rows.map((row) => row.page_key)
  }),
  settle: Effect.fnUntraced(function*(jobId: string, key: string, outcome: JobPageOutcome, now: number) {
    const rows = yield* execute(
      query.updateTable("job_pages")
        .set({
          status: outcome.status,
          document: outcome.status === "done" ? outcome.document : null,
          error: outcome.status === "failed" ? outcome.error : null,
          finished_at: now
        })
        .where("job_id", "=", jobId).where("page_key", "=", key).where("status", "=", "pending")
        .returning("page_key")
    )
    return rows.length > 0
  }),
  counts: Effect.fnUntraced(function*(jobId: string) {
    const rows = yield* decodeCounts(yield* execute(
      query.selectFrom("job_pages").select((eb) => ["status", eb.fn.countAll().as("count")]).where("job_id", "=", jobId).groupBy("status")
    ))
    const count = (status: string) => rows.find((row) => row.status === status)?.count ?? 0
    return { pending: count("pending"), done: count("done"), failed: count("failed"), blocked: count("blocked") }
  }),
  results: Effect.fnUntraced(function*(jobId: string, teamId: string, options: { readonly offset: number; readonly limit: number }) {
    return yield* decodePages(yield* execute(
      query.selectFrom("job_pages").selectAll().where("job_id", "=", jobId).where("team_id", "=", teamId).where("status", "=", "done")
        .orderBy("finished_at").orderBy("page_key").limit(options.limit).offset(options.offset)
    ))
  }),
  problems: Effect.fnUntraced(function*(jobId: string, teamId: string) {
    return yield* decodePages(yield* execute(
      query.selectFrom("job_pages").selectAll().where("job_id", "=", jobId).where("team_id", "=", teamId)
        .where("status", "in", ["failed", "blocked"]).orderBy("finished_at").orderBy("page_key")
    ))
  }),
  deleteJob: Effect.fnUntraced(function*(jobId: string) {
    yield* execute(query.deleteFrom("job_pages").where("job_id", "=", jobId))
  })
})

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
