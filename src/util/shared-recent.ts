// A value that costs something to get (a runtime call behind an endpoint anyone on the host may
// ask) and that any number of clients ask for: callers at the same time share one getting, and a
// value got less than `maxAgeMs` ago is handed out again. What the daemon and the runtime spend
// on it is then bounded by time, not by how many clients ask or how fast. A failed getting is not
// kept: the next caller tries again.
export function sharedRecent<T>(get: () => Promise<T>, maxAgeMs: number, now: () => number): () => Promise<T> {
  let inFlight: Promise<T> | undefined
  let last: {value: T; at: number} | undefined
  return () => {
    // A clock set back makes the age negative: such a value is not known to be recent.
    const age = last ? now() - last.at : -1
    if (last && age >= 0 && age < maxAgeMs) return Promise.resolve(last.value)
    if (!inFlight) {
      const at = now()
      inFlight = get()
        .then((value) => {
          last = {value, at}
          return value
        })
        .finally(() => (inFlight = undefined))
    }
    return inFlight
  }
}
