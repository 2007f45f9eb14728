// A manifest URL as a source (`--manifest-url`): GET at once and then every checkFrequencyMs,
// with the `--manifest-url-header` headers, through the manifest pipeline (10s timeout, 10 MiB,
// Pod / PodList / List / multi-document YAML). Safer than the kubelet:
// - an error, a timeout, a non-200 answer or an invalid body keeps the pods of the last good
//   body and is reported as an issue of the snapshot (so /pods shows it);
// - a 200 with an empty body is treated as an error too: the kubelet removes every URL pod
//   then, but an empty answer is far more often a broken server than an intended "no pods".
// Header values are credentials: they are never logged, and error texts are scrubbed of them.
// The URL is shown without userinfo, query and fragment everywhere (logs, issues, pod source).
import {readLocation, type HttpResponse, type ManifestIO} from '../manifest/read.js'
import {getSameOrigin} from '../manifest/fetch-url.js'
import type {Clock} from '../util/clock.js'
import type {FieldIssue} from '../util/errors.js'
import type {Logger} from '../util/logger.js'
import {redactUrl, scrub} from '../manifest/redact-url.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'
import {createSource} from './source-base.js'
import type {ManifestSource} from './types.js'

export interface HttpSourceOptions {
  url: string
  headers: Record<string, string[]>
  nodeName: string
  /** Unknown manifest fields: errors (default: the location keeps its last good version), warnings, or ignored. */
  validate?: ValidationMode | undefined
  checkFrequencyMs: number
  logger: Logger
  fetch?: typeof fetch
  clock?: Clock
}

export function createHttpSource(opts: HttpSourceOptions): ManifestSource {
  const shown = redactUrl(opts.url)
  const doFetch = opts.fetch ?? fetch
  const secrets = Object.values(opts.headers).flat()
  const headers = Object.entries(opts.headers).flatMap(([key, values]) => values.map((v): [string, string] => [key, v]))
  let fetchIssue: FieldIssue | undefined

  const {source, core} = createSource({
    name: `http:${shown}`,
    kind: 'http',
    nodeName: opts.nodeName,
    validate: opts.validate,
    checkFrequencyMs: opts.checkFrequencyMs,
    logger: opts.logger,
    clock: opts.clock,
    failure: 'polling the manifest URL failed',
    scrub: (text) => scrub(text, secrets),
    async read(core) {
      const result = await readLocation({kind: 'url', url: opts.url, arg: opts.url}, io)
      if (core.stopping.aborted) return
      const blob = result.blobs[0]
      if (result.issues.length > 0 || !blob) {
        const first = result.issues[0]
        fetchIssue = {location: shown, document: 0, field: '', message: scrub(first?.message ?? 'no response', secrets)}
      } else {
        fetchIssue = undefined
        // Unchanged bytes are not decoded again (ManifestCache compares the text).
        core.cache.setText(shown, blob.text)
      }
      core.publish()
    },
    // A failed request replaces the body's problems: they are about an older answer.
    report: (snap) => ({
      issues: fetchIssue ? [fetchIssue] : snap.issues.map((i) => ({...i, message: scrub(i.message, secrets)})),
      complete: core.cache.hasGood(shown),
    }),
  })
  const io: ManifestIO = {
    httpHeaders: headers,
    fetch: async (url, init): Promise<HttpResponse> => {
      const res = await getSameOrigin(doFetch, url, {signal: AbortSignal.any([init.signal, core.stopping]), headers: init.headers})
      if (res.status === 200) return {status: res.status, statusText: res.statusText, body: res.body}
      // The body of an error answer is not read: release the connection.
      await res.body?.cancel().catch(() => {})
      return {status: res.status, statusText: res.statusText, body: null}
    },
  }
  return source
}
