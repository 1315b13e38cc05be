/**
 * The official SDK, unchanged, against Gleaner: only `apiUrl` differs from talking to Firecrawl's
 * cloud. This prints the account figures a dashboard would show.
 */
import Firecrawl from "@mendable/firecrawl-js"

export const usageReport = async (apiUrl: string, apiKey: string) => {
  const firecrawl = new Firecrawl({ apiUrl, apiKey })
  const [credits, tokens, concurrency, queue] = await Promise.all([
    firecrawl.getCreditUsage(),
    firecrawl.getTokenUsage(),
    firecrawl.getConcurrency(),
    firecrawl.getQueueStatus()
  ])
  return {
    remainingCredits: credits.remainingCredits,
    planCredits: credits.planCredits,
    remainingTokens: tokens.remainingTokens,
    runningJobs: concurrency.concurrency,
    maxConcurrency: concurrency.maxConcurrency,
    queuedJobs: queue.waitingJobsInQueue
  }
}
