/**
 * Postgres for tests: a fresh, uniquely named database per suite, created through an admin
 * connection and dropped (forcibly) when the scope closes.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { PostgresStore } from "../src/index.js"

const withAdmin = <A, E>(adminUrl: string, f: (sql: PgClient.PgClient) => Effect.Effect<A, E>) =>
  Effect.flatMap(PgClient.PgClient, f).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(adminUrl) })))

/** A fresh database for the lifetime of the scope; its URL. */
export const scopedDatabase = (adminUrl: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const name = `gleaner_test_${randomUUID().replaceAll("-", "")}`
      yield* withAdmin(adminUrl, (sql) => sql`CREATE DATABASE ${sql(name)}`)
      const databaseUrl = new URL(adminUrl)
      databaseUrl.pathname = `/${name}`
      return { name, url: databaseUrl.toString() }
    }),
    ({ name }) => Effect.orDie(withAdmin(adminUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
  )

export const freshPostgresStore = (adminUrl: string) =>
  Layer.unwrapScoped(Effect.map(scopedDatabase(adminUrl), (db) => PostgresStore.layer({ url: db.url })))

