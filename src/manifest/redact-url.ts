// Keeping secrets out of logs and /pods: a URL loses its userinfo, query and fragment (tokens
// live there), and any text loses the configured header values. Pure.

/** `https://user:pw@host/path?token=x#f` → `https://host/path`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    // Not parseable: show nothing that might be secret.
    return '<invalid URL>'
  }
}

/** `text` with every occurrence of a secret replaced; longer secrets first so none leaks in part. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of [...secrets].filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join('<redacted>')
  }
  return out
}

/** The parts of a URL that may be secret (the whole URL, userinfo, query, fragment), for scrub. */
export function urlSecrets(url: string): string[] {
  const out = [url]
  try {
    const u = new URL(url)
    out.push(u.href, u.username, u.password, decodeURIComponent(u.password), u.search, u.hash)
  } catch {
    // Not parseable: the raw text is all there is to hide.
  }
  return out.filter((s) => s.length > 1)
}
