/**
 * What scraping keeps: documents (readable again with `GET /v2/scrape/:id` until they expire),
 * the page cache (the fetched bytes, so any formats can be made from a hit) and the last snapshot
 * of each URL per change-tracking tag. Replacing an entry is an upsert on its natural key.
 */
import type { CachedPage, PageSnapshot, StoreService, StoredDocument } from "@gleaner/core"
import { Effect, Schema } from "effect"
import { column, type Db, DbNumber, decodeFirst } from "./database.js"

const DocumentFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  sourceUrl: column("source_url", Schema.String),
  document: Schema.String,
  auditMetadata: column("audit_metadata", Schema.NullOr(Schema.String)),
  replay: Schema.NullOr(Schema.String),
  createdAt: column("created_at", DbNumber),
  expiresAt: column("expires_at", DbNumber)
})

const Base64Bytes = Schema.transform(Schema.String, Schema.Uint8ArrayFromSelf, {
  strict: true,
  decode: (text) => new Uint8Array(Buffer.from(text, "base64")),
  encode: (bytes) => Buffer.from(bytes).toString("base64")
})

const CachedPageFromRow = Schema.Struct({
  teamId: column("team_id", Schema.String),
  key: column("cache_key", Schema.String),
  url: Schema.String,
  statusCode: column("status_code", DbNumber),
  contentType: column("content_type", Schema.NullOr(Schema.String)),
  body: Base64Bytes,
  fetchedAt: column("fetched_at", DbNumber)
})

const SnapshotFromRow = Schema.Struct({
  teamId: column("team_id", Schema.String),
  url: Schema.String,
  tag: Schema.String,
  markdown: Schema.String,
  json: Schema.NullOr(Schema.String),
  scrapedAt: column("scraped_at", DbNumber)
})

const decodeDocument = decodeFirst(DocumentFromRow)
const decodeCachedPage = decodeFirst(CachedPageFromRow)
const decodeSnapshot = decodeFirst(SnapshotFromRow)

export const makeDocuments = ({ execute, query }: Db): StoreService["documents"] => ({
  put: Effect.fnUntraced(function*(d: StoredDocument) {
    yield* execute(query.insertInto("documents").values({
      id: d.id,
      team_id: d.teamId,
      source_url: d.sourceUrl,
      document: d.document,
      audit_metadata: d.auditMetadata,
      replay: d.replay,
      created_at: d.createdAt,
      expires_at: d.expiresAt
    }))
  }),
  get: Effect.fnUntraced(function*(teamId: string, id: string, now: number) {
    return yield* decodeDocument(yield* execute(
      query.selectFrom("documents").selectAll().where("team_id", "=", teamId).where("id", "=", id).where("expires_at", ">", now)
    ))
  }),
  purgeExpired: Effect.fnUntraced(function*(now: number) {
    const rows = yield* execute(query.deleteFrom("documents").where("expires_at", "<=", now).returning("id"))
    return rows.length
  })
})

export const makePageCache = ({ execute, query }: Db): StoreService["pageCache"] => ({
  put: Effect.fnUntraced(function*(page: CachedPage) {
    const row = {
      url: page.url,
      status_code: page.statusCode,
      content_type: page.contentType,
      body: Buffer.from(page.body).toString("base64"),
      fetched_at: page.fetchedAt
    }
    yield* execute(query.insertInto("page_cache").values({ team_id: page.teamId, cache_key: page.key, ...row })
      .onConflict((oc) => oc.columns(["team_id", "cache_key"]).doUpdateSet(row)))
  }),
  get: Effect.fnUntraced(function*(teamId: string, key: string) {
    return yield* decodeCachedPage(yield* execute(
      query.selectFrom("page_cache").selectAll().where("team_id", "=", teamId).where("cache_key", "=", key)
    ))
  })
})

export const makeSnapshots = ({ execute, query }: Db): StoreService["snapshots"] => ({
  put: Effect.fnUntraced(function*(s: PageSnapshot) {
    const row = { markdown: s.markdown, json: s.json, scraped_at: s.scrapedAt }
    yield* execute(query.insertInto("page_snapshots").values({ team_id: s.teamId, url: s.url, tag: s.tag, ...row })
      .onConflict((oc) => oc.columns(["team_id", "url", "tag"]).doUpdateSet(row)))
  }),
  latest: Effect.fnUntraced(function*(teamId: string, url: string, tag: string) {
    return yield* decodeSnapshot(yield* execute(
      query.selectFrom("page_snapshots").selectAll().where("team_id", "=", teamId).where("url", "=", url).where("tag", "=", tag)
    ))
  })
})
