// What one client can make the daemon hold through the API: long-lived streams are few, end on
// their own, and end the moment the client goes away.
export const KUBE_API_LIMITS = {
  /** Watches and log reads (followed or not) open at once, over every client; more answer 429. */
  maxStreams: 32,
  /** A watch ends after this long (the API server's default is 30–60 min); clients watch again. */
  maxWatchSeconds: 1800,
  /** A watch that has sent nothing for this long ends, as if its timeoutSeconds had passed. */
  watchIdleSeconds: 300,
  /** A log read (followed or not) ends after this long. */
  maxLogSeconds: 4 * 3600,
  /** A log read whose client has taken nothing for this long (its unsent bytes at the bound) ends. */
  stalledClientSeconds: 30,
  /** The least time between two reads of the pods, however many lists arrive (they share the next read). */
  minReadGapMs: 100,
  /** How often the pods are re-read while someone watches. */
  podPollMs: 1000,
  /** Pod changes kept for watches that start from an older resourceVersion. */
  historySize: 1000,
} as const
