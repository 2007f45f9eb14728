// Reading CRI log files as `kubectl logs` shows them: partial lines joined, tail, timestamps,
// and --follow across rotation.
import {describe, expect, it} from 'vitest'
import {appendFileSync, mkdtempSync, renameSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {parseLog} from '../../../src/kuberuntime/log-format.js'
import {streamContainerLog} from '../../../src/kuberuntime/logs.js'
import {realClock} from '../../../src/util/clock.js'

const T1 = '2026-11-21T20:42:31.812111033Z'
const T2 = '2026-11-21T20:42:32.000000001Z'

describe('CRI log format', () => {
  it.each([
    ['a full line', `${T1} stdout F hello\n`, [{timestamp: T1, stream: 'stdout', text: 'hello'}]],
    ['partial records joined', `${T1} stdout P hel\n${T2} stdout F lo\n`, [{timestamp: T1, stream: 'stdout', text: 'hello'}]],
    ['stderr kept apart', `${T1} stderr F oops\n`, [{timestamp: T1, stream: 'stderr', text: 'oops'}]],
    ['an empty line', `${T1} stdout F\n`, [{timestamp: T1, stream: 'stdout', text: ''}]],
    ['a line that is not CRI', `plain text\n`, [{timestamp: '', stream: 'stdout', text: 'plain text'}]],
  ])('%s', (_name, content, expected) => {
    expect(parseLog(content)).toEqual(expected)
  })
})

describe('streamContainerLog', () => {
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'kn-logs-')), '0.log')

  it('prints the last N lines, with timestamps when asked', async () => {
    const path = file()
    writeFileSync(path, [1, 2, 3].map((i) => `${T1} stdout F line ${i}`).join('\n') + '\n')
    const out: string[] = []
    await streamContainerLog(path, {tail: 2, timestamps: true, follow: false}, (l) => out.push(l), realClock)
    expect(out).toEqual([`${T1} line 2`, `${T1} line 3`])
  })

  it('follows new lines and continues in a rotated file', async () => {
    const path = file()
    writeFileSync(path, `${T1} stdout F first\n`)
    const out: string[] = []
    const abort = new AbortController()
    const done = streamContainerLog(path, {timestamps: false, follow: true, signal: abort.signal, pollMs: 20}, (l) => out.push(l), realClock)
    await new Promise((r) => setTimeout(r, 60))
    appendFileSync(path, `${T2} stdout F second\n`)
    await new Promise((r) => setTimeout(r, 80))
    renameSync(path, `${path}.20261121-204232`)
    writeFileSync(path, `${T2} stdout F after rotation\n`)
    await new Promise((r) => setTimeout(r, 80))
    abort.abort()
    await done
    expect(out).toEqual(['first', 'second', 'after rotation'])
  })
})
