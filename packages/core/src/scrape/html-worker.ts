/**
 * A transform thread (see html-threads.ts): says it is ready once its modules are loaded, then
 * answers each task with the page's content, or with the message of what went wrong.
 */
import { parentPort } from "node:worker_threads"
import { Either, Schema } from "effect"
import { HtmlTask, type HtmlThreadMessage, htmlContent } from "./html-content.js"

const decodeTask = Schema.decodeUnknownEither(HtmlTask)

const reply = (message: HtmlThreadMessage): void => parentPort?.postMessage(message)

parentPort?.on("message", (data: unknown) => {
  const task = decodeTask(data)
  if (Either.isLeft(task)) {
    const id = typeof data === "object" && data !== null && "id" in data && typeof data.id === "number" ? data.id : -1
    reply({ _tag: "failed", id, message: `Malformed transform task: ${task.left.message}` })
    return
  }
  const { id, recipe, page } = task.right
  try {
    reply({ _tag: "done", id, produced: htmlContent(recipe, page) })
  } catch (error) {
    reply({ _tag: "failed", id, message: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) })
  }
})

reply({ _tag: "ready" })
