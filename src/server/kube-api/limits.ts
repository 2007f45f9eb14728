// What one client can make the daemon hold through the API: long-lived streams are few, end on
// their own, and end the moment the client goes away.
export const KUBE_API_LIMITS = {
  /** Watches and log follows open at once, over every client; more answer 429. */
  maxStreams: 32,
  /** A watch ends after this long (the API server's default is 30–60 min); clients watch again. */
  maxWatchSeconds: 1800,
  /** A log follow ends after this long. */
  maxFollowSeconds: 4 * 3600,
  /** How often the pods are re-read while someone watches. */
  podPollMs: 1000,
  /** Pod changes kept for watches that start from an older resourceVersion. */
  historySize: 1000,
  /** Lists share a read this recent. */
  listFreshMs: 250,
} as const
