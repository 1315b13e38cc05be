/**
 * Accounts: teams, their API keys, and turning a bearer token into the team it acts for.
 */
import { Clock, Effect, Option } from "effect"
import { BadRequestError, ConflictError, messages, NotFoundError, UnauthorizedError } from "../errors.js"
import { uuidv7At } from "../ids.js"
import { type Plan, Plans } from "../billing/plans.js"
import { type ApiKey, Store, type Team } from "../ports/store.js"
import { displayPrefix, generateApiKey, hashApiKey, isApiKey } from "./api-key.js"

/** Who a request acts for. `apiKeyId` is null in auth-off mode. */
export interface AuthContext {
  readonly team: Team
  readonly apiKeyId: string | null
}

export interface CreatedApiKey {
  /** The key itself: shown once, never stored. */
  readonly key: string
  readonly record: ApiKey
}

export const DEFAULT_TEAM = "default"

export class Accounts extends Effect.Service<Accounts>()("@gleaner/core/Accounts", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const plans = yield* Plans

    const planNamed = (name: string) =>
      Option.match(plans.find(name), {
        onNone: () =>
          Effect.fail(new BadRequestError({
            message: `Unknown plan "${name}"; plans: ${plans.all.map((p) => p.name).join(", ")}`
          })),
        onSome: (plan) => Effect.succeed<Plan>(plan)
      })

    const createTeam = Effect.fn("Accounts.createTeam")(function*(name: string, planName: string) {
      const plan = yield* planNamed(planName)
      if (name.trim().length === 0) return yield* new BadRequestError({ message: "A team needs a name" })
      const now = yield* Clock.currentTimeMillis
      return yield* store.teams.create({
        id: uuidv7At(now),
        name: name.trim(),
        plan: plan.name,
        maxConcurrency: plan.concurrency,
        createdAt: now
      })
    })

    const findTeam = Effect.fn("Accounts.findTeam")(function*(nameOrId: string) {
      const byName = yield* store.teams.findByName(nameOrId)
      const team = Option.isSome(byName) ? byName : yield* store.teams.get(nameOrId)
      return yield* Option.match(team, {
        onNone: () => Effect.fail(new NotFoundError({ message: `No team named "${nameOrId}"` })),
        onSome: Effect.succeed
      })
    })

    const insertKey = (teamId: string, key: string, name: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.apiKeys.insert({
          id: uuidv7At(now),
          teamId,
          name,
          displayPrefix: displayPrefix(key),
          hash: hashApiKey(key),
          createdAt: now
        }))

    const createKey = Effect.fn("Accounts.createKey")(function*(teamId: string, name = "default") {
      const key = generateApiKey()
      const record = yield* insertKey(teamId, key, name)
      return { key, record } satisfies CreatedApiKey
    })

    /** Adds a key the operator chose (GLEANER_API_KEY) unless it is already active. */
    const importKey = Effect.fn("Accounts.importKey")(function*(teamId: string, key: string, name: string) {
      if (!isApiKey(key)) return yield* new BadRequestError({ message: "An API key is fc- followed by 32 hex digits" })
      const existing = yield* store.apiKeys.findActiveByHash(hashApiKey(key))
      if (Option.isSome(existing)) {
        if (existing.value.team.id !== teamId) {
          return yield* new ConflictError({ message: "That key already belongs to another team" })
        }
        return existing.value.key
      }
      return yield* insertKey(teamId, key, name)
    })

    /** The team a bearer token acts for; 401 with upstream's messages otherwise. */
    const authenticate = Effect.fn("Accounts.authenticate")(function*(token: string) {
      if (token.length === 0) return yield* new UnauthorizedError({ message: messages.tokenMissing })
      if (!isApiKey(token)) return yield* new UnauthorizedError({ message: messages.invalidToken })
      const found = yield* store.apiKeys.findActiveByHash(hashApiKey(token))
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new UnauthorizedError({ message: messages.invalidToken })),
        onSome: ({ key, team }) => Effect.succeed<AuthContext>({ team, apiKeyId: key.id })
      })
    })

    const revokeKey = Effect.fn("Accounts.revokeKey")(function*(keyId: string) {
      const revoked = yield* store.apiKeys.revoke(keyId, yield* Clock.currentTimeMillis)
      if (!revoked) return yield* new NotFoundError({ message: `No active API key with id ${keyId}` })
    })

    return {
      createTeam,
      findTeam,
      listTeams: () => store.teams.list(),
      setPlan: Effect.fn("Accounts.setPlan")(function*(teamId: string, planName: string) {
        const plan = yield* planNamed(planName)
        const team = yield* store.teams.update(teamId, { plan: plan.name, maxConcurrency: plan.concurrency })
        return yield* Option.match(team, {
          onNone: () => Effect.fail(new NotFoundError({ message: "No such team" })),
          onSome: Effect.succeed
        })
      }),
      createKey,
      importKey,
      listKeys: (teamId?: string) => store.apiKeys.list(teamId),
      revokeKey,
      authenticate
    } as const
  })
}) {}
