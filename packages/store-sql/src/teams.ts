/**
 * Teams, the tenants. A taken name is a ConflictError: the insert does nothing on a name conflict
 * and returns no row, which both dialects report the same way, so no driver error codes are parsed.
 */
import { ConflictError, type StoreService, type Team } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { column, type Db, DbNumber, decodeFirst, decodeRows } from "./database.js"

export const TeamFromRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  plan: Schema.String,
  maxConcurrency: column("max_concurrency", DbNumber),
  createdAt: column("created_at", DbNumber)
})

const decodeTeams = decodeRows(TeamFromRow)
const decodeTeam = decodeFirst(TeamFromRow)

export const makeTeams = (db: Db): StoreService["teams"] => {
  const { execute, query } = db
  const selectTeams = query.selectFrom("teams").selectAll()

  const get = Effect.fnUntraced(function*(id: string) {
    return yield* decodeTeam(yield* execute(selectTeams.where("id", "=", id)))
  })

  return {
    create: Effect.fnUntraced(function*(team: Team) {
      const rows = yield* execute(
        query
          .insertInto("teams")
          .values({
            id: team.id,
            name: team.name,
            plan: team.plan,
            max_concurrency: team.maxConcurrency,
            created_at: team.createdAt
          })
          .onConflict((oc) => oc.column("name").doNothing())
          .returningAll()
      )
      const created = yield* decodeTeam(rows)
      if (Option.isNone(created)) {
        return yield* new ConflictError({ message: `A team named "${team.name}" already exists.` })
      }
      return created.value
    }),

    get,

    findByName: Effect.fnUntraced(function*(name: string) {
      return yield* decodeTeam(yield* execute(selectTeams.where("name", "=", name)))
    }),

    list: Effect.fnUntraced(function*() {
      return yield* decodeTeams(yield* execute(selectTeams.orderBy("created_at").orderBy("id")))
    }),

    update: Effect.fnUntraced(function*(
      id: string,
      changes: { readonly plan?: string; readonly maxConcurrency?: number }
    ) {
      const set = {
        ...(changes.plan === undefined ? {} : { plan: changes.plan }),
        ...(changes.maxConcurrency === undefined ? {} : { max_concurrency: changes.maxConcurrency })
      }
      if (Object.keys(set).length === 0) return yield* get(id)
      return yield* decodeTeam(
        yield* execute(query.updateTable("teams").set(set).where("id", "=", id).returningAll())
      )
    })
  }
}
