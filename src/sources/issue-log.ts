// Logs a source's problems once per distinct text, not on every re-list, and says so at info
// when a location has no problem any more.
import {formatIssue, type FieldIssue} from '../util/errors.js'
import type {Logger} from '../util/logger.js'

export class IssueLog {
  private reported = new Map<string, Set<string>>()

  constructor(
    private readonly source: string,
    private readonly logger: Logger,
    /** What the log calls one: problems refuse a location, warnings (unknown fields) do not. */
    private readonly noun = 'manifest problem',
  ) {}

  /** `kept(location)`: the location still contributes its last good pods. */
  report(issues: readonly FieldIssue[], kept: (location: string) => boolean): void {
    const current = new Map<string, Set<string>>()
    for (const issue of issues) {
      const texts = current.get(issue.location) ?? new Set<string>()
      current.set(issue.location, texts)
      const text = formatIssue(issue)
      if (texts.has(text)) continue
      texts.add(text)
      if (this.reported.get(issue.location)?.has(text)) continue
      const msg = kept(issue.location) ? `${this.noun}, keeping its last good version` : this.noun
      this.logger.warn(msg, {source: this.source, problem: text})
    }
    for (const location of this.reported.keys()) {
      if (!current.has(location)) this.logger.info(`${this.noun} resolved`, {source: this.source, location})
    }
    this.reported = current
  }
}
