// Termination messages: the file the container writes, capped at 4 KiB; with
// FallbackToLogsOnError the end of the CRI log when a failed container wrote nothing; and the
// message appended to the runtime's message of exited containers.
import {prepareTerminationMessage} from '../../../src/apply/termination-message-file.js'
import {nodeHostFs} from '../../../src/host/node-host-fs.js'
import {mkdtempSync, rmSync, statSync, writeFileSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ContainerStatus} from '../../../src/cri/api.js'
import type {RuntimeContainer, RuntimePod} from '../../../src/kuberuntime/model.js'
import {
  criLogText,
  readLogTail,
  readTerminationMessage,
  terminationMessageHostPath,
  terminationMessageReader,
  withTerminationMessages,
  TERMINATION_MESSAGE_HOST_PATH_ANNOTATION,
} from '../../../src/kuberuntime/termination-message.js'
import {TERMINATION_MESSAGE_PATH_ANNOTATION, TERMINATION_MESSAGE_POLICY_ANNOTATION} from '../../../src/kuberuntime/labels.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kn-tmsg-'))
})
afterEach(() => rmSync(dir, {recursive: true, force: true}))

function file(name: string, text: string | Buffer): string {
  const p = join(dir, name)
  writeFileSync(p, text)
  return p
}

function criLines(lines: string[], stream = 'stdout', tag = 'F'): string {
  return lines.map((l) => `2025-01-01T00:00:00.000000000Z ${stream} ${tag} ${l}\n`).join('')
}

describe('prepareTerminationMessage', () => {
  it('creates an empty 0666 file under <root>/pods/<uid>/containers/<name> and mounts it read-write', async () => {
    const setup = await prepareTerminationMessage(nodeHostFs, dir, 'uid-1', {name: 'main', terminationMessagePath: '/dev/termination-log'}, () => 'deadbeef')
    const hostPath = join(dir, 'pods', 'uid-1', 'containers', 'main', 'deadbeef')
    expect(setup).toEqual({
      mount: {containerPath: '/dev/termination-log', hostPath, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE'},
      annotations: {[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]: hostPath},
    })
    expect(statSync(hostPath).mode & 0o777).toBe(0o666)
    expect(readFileSync(hostPath, 'utf8')).toBe('')
  })

  it('uses /dev/termination-log when the path is not set, and nothing when it is ""', async () => {
    expect((await prepareTerminationMessage(nodeHostFs, dir, 'u', {name: 'c'}))?.mount.containerPath).toBe('/dev/termination-log')
    expect(await prepareTerminationMessage(nodeHostFs, dir, 'u', {name: 'c', terminationMessagePath: ''})).toBeUndefined()
  })

  it('gives each instance its own file', async () => {
    const a = await prepareTerminationMessage(nodeHostFs, dir, 'u', {name: 'c'})
    const b = await prepareTerminationMessage(nodeHostFs, dir, 'u', {name: 'c'})
    expect(a?.mount.hostPath).not.toBe(b?.mount.hostPath)
    expect(a?.mount.hostPath).toMatch(/\/[0-9a-f]{8}$/)
  })
})

describe('readTerminationMessage', () => {
  it('returns what the container wrote', async () => {
    expect(await readTerminationMessage(nodeHostFs, file('m', 'disk full\n'), 'File', 1, '')).toBe('disk full\n')
  })

  it('keeps only the last 4096 bytes', async () => {
    const text = 'a'.repeat(1000) + 'b'.repeat(4096)
    expect(await readTerminationMessage(nodeHostFs, file('m', text), 'File', 0, '')).toBe('b'.repeat(4096))
  })

  it.each([
    ['File, failed, empty file: nothing', 'File', 1, '', ''],
    ['FallbackToLogsOnError, failed, empty file: the log', 'FallbackToLogsOnError', 1, '', 'line 1\nline 2\n'],
    ['FallbackToLogsOnError, succeeded, empty file: nothing', 'FallbackToLogsOnError', 0, '', ''],
    ['FallbackToLogsOnError, failed, written file: the file', 'FallbackToLogsOnError', 2, 'from file', 'from file'],
  ] as const)('%s', async (_name, policy, exitCode, written, want) => {
    const log = file('0.log', criLines(['line 1', 'line 2']))
    expect(await readTerminationMessage(nodeHostFs, file('m', written), policy, exitCode, log)).toBe(want)
  })

  it('falls back to the log when the file is missing, and is empty when both are', async () => {
    const log = file('0.log', criLines(['only']))
    expect(await readTerminationMessage(nodeHostFs, join(dir, 'gone'), 'FallbackToLogsOnError', 1, log)).toBe('only\n')
    expect(await readTerminationMessage(nodeHostFs, '', 'FallbackToLogsOnError', 1, log)).toBe('only\n')
    expect(await readTerminationMessage(nodeHostFs, join(dir, 'gone'), 'FallbackToLogsOnError', 1, join(dir, 'no.log'))).toBe('')
  })

  it('reports a file it cannot read', async () => {
    expect(await readTerminationMessage(nodeHostFs, dir, 'File', 1, '')).toMatch(/^Error on reading termination log /)
  })
})

describe('CRI log tail', () => {
  it('strips the CRI prefix, joins partial lines and keeps both streams', () => {
    const lines = [
      '2025-01-01T00:00:00.1Z stdout P hello ',
      '2025-01-01T00:00:00.2Z stdout F world',
      '2025-01-01T00:00:00.3Z stderr F oops',
      '2025-01-01T00:00:00.4Z stdout F',
      'not a cri line',
    ]
    expect(criLogText(lines)).toBe('hello world\noops\n\nnot a cri line\n')
  })

  it('keeps the last 80 lines', async () => {
    const lines = Array.from({length: 100}, (_, i) => `l${i}`)
    const out = await readLogTail(nodeHostFs, file('0.log', criLines(lines)))
    expect(out.split('\n').filter(Boolean)).toEqual(lines.slice(20))
  })

  it('keeps the last 2048 bytes of them', async () => {
    const lines = Array.from({length: 50}, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(97)}`)
    const out = await readLogTail(nodeHostFs, file('0.log', criLines(lines)))
    expect(Buffer.byteLength(out)).toBe(2048)
    expect(out.endsWith(`49${'x'.repeat(97)}\n`)).toBe(true)
  })

  it('reads only the end of a large log', async () => {
    const lines = Array.from({length: 5000}, (_, i) => `line ${i} ${'y'.repeat(40)}`)
    const out = await readLogTail(nodeHostFs, file('0.log', criLines(lines)))
    expect(out.split('\n').filter(Boolean).at(-1)).toBe(lines.at(-1))
    expect(out.split('\n').filter(Boolean).length).toBeLessThanOrEqual(80)
  })
})

describe('withTerminationMessages', () => {
  function rc(id: string, extra: Partial<RuntimeContainer> = {}): RuntimeContainer {
    return {
      id, sandboxId: 's1', name: id, type: 'regular', state: 'exited', restartCount: 0, hash: 'h', createdAt: 1, startedAt: 1,
      finishedAt: 2, exitCode: 1, reason: 'Error', message: '', image: 'busybox', imageRef: 'sha', logPath: '', ...extra,
    }
  }
  function status(id: string, annotations: Record<string, string>, mounts: ContainerStatus['mounts'] = [], logPath = ''): ContainerStatus {
    return {
      id, metadata: {name: id, attempt: 0}, state: 'CONTAINER_EXITED', createdAt: 1, startedAt: 1, finishedAt: 2, exitCode: 1,
      image: {image: 'busybox'}, imageRef: 'sha', reason: 'Error', message: '', labels: {}, annotations, mounts, logPath,
    } as ContainerStatus
  }

  it('sets the message of exited containers, after the runtime message, and leaves others alone', async () => {
    const written = file('a-msg', 'bye')
    const pod: RuntimePod = {
      uid: 'u', name: 'p', namespace: 'default', manifestName: 'p', sandboxes: [],
      containers: [rc('a'), rc('b', {message: 'runtime said'}), rc('c', {state: 'running'}), rc('d')],
    }
    const statuses = new Map([
      ['a', status('a', {[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]: written})],
      ['b', status('b', {[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]: written})],
      ['c', status('c', {[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]: written})],
    ])
    const out = await withTerminationMessages(pod, statuses, terminationMessageReader(nodeHostFs))
    expect(out.containers.map((c) => c.message)).toEqual(['bye', 'runtime said: bye', '', ''])
    expect(pod.containers[0]!.message).toBe('')
  })

  it('finds the file through the mount at terminationMessagePath, and applies the policy from the annotation', async () => {
    const log = file('0.log', criLines(['panic: boom']))
    const empty = file('empty', '')
    const s = status('a', {[TERMINATION_MESSAGE_PATH_ANNOTATION]: '/dev/termination-log', [TERMINATION_MESSAGE_POLICY_ANNOTATION]: 'FallbackToLogsOnError'}, [
      {containerPath: '/dev/termination-log', hostPath: empty, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE'},
    ], log)
    expect(terminationMessageHostPath(s)).toBe(empty)
    const pod: RuntimePod = {uid: 'u', name: 'p', namespace: 'default', manifestName: 'p', sandboxes: [], containers: [rc('a')]}
    const out = await withTerminationMessages(pod, new Map([['a', s]]), terminationMessageReader(nodeHostFs))
    expect(out.containers[0]!.message).toBe('panic: boom\n')
  })

  it('passes what it found to the reader it is given', async () => {
    const seen: unknown[] = []
    const pod: RuntimePod = {uid: 'u', name: 'p', namespace: 'default', manifestName: 'p', sandboxes: [], containers: [rc('a', {exitCode: 3, logPath: '/logs/a/0.log'})]}
    await withTerminationMessages(pod, new Map([['a', status('a', {[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]: '/h', [TERMINATION_MESSAGE_POLICY_ANNOTATION]: 'FallbackToLogsOnError'})]]), async (...args) => {
      seen.push(args)
      return ''
    })
    expect(seen).toEqual([['/h', 'FallbackToLogsOnError', 3, '/logs/a/0.log']])
  })
})
