// `watch` under a service manager, with a notify socket this test owns (an abstract unix datagram
// socket, as systemd may hand out): READY=1 only once the pod is Ready, STATUS= lines with the
// counts, WATCHDOG=1 at half of WATCHDOG_USEC, STOPPING=1 on SIGTERM; and READY=1 at the latest
// after --notify-ready-timeout when a pod never becomes Ready, so systemd never times the start out.
import {spawn, type ChildProcess} from 'node:child_process'
import {createInterface} from 'node:readline'
import {describe, expect, it} from 'vitest'
import {BUSYBOX, ENDPOINT, eventually, knArgs, knAs, readyAfterYaml, watchSuite, writeManifest} from './support.js'

const suite = watchSuite()
const READY_AFTER_S = 3

const slowPod = readyAfterYaml('notify-slow', READY_AFTER_S)

/** Receives datagrams on an abstract socket; each message is one JSON line on stdout. */
const RECEIVER = `
import socket, sys, json, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind('\\0' + sys.argv[1])
print(json.dumps({"bound": True}), flush=True)
while True:
    d = s.recv(65536)
    print(json.dumps({"at": time.time() * 1000, "msg": d.decode()}), flush=True)
`

interface Message {
  at: number
  msg: string
}

function receiver(name: string): {proc: ChildProcess; messages: Message[]; bound: Promise<void>} {
  const proc = spawn('python3', ['-c', RECEIVER, name], {stdio: ['ignore', 'pipe', 'inherit']})
  const messages: Message[] = []
  let onBound = (): void => {}
  const bound = new Promise<void>((r) => (onBound = r))
  createInterface({input: proc.stdout!}).on('line', (line) => {
    const m = JSON.parse(line) as {bound?: boolean} & Message
    if (m.bound) return onBound()
    // systemd-notify's own synchronisation message is not ours.
    if (m.msg !== 'BARRIER=1') messages.push({at: m.at, msg: m.msg})
  })
  return {proc, messages, bound}
}

describe('watch with NOTIFY_SOCKET (real containerd)', () => {
  it('sends READY=1 only once the pod is Ready, STATUS lines, watchdog pings, and STOPPING=1 on SIGTERM', async () => {
    const name = `kn-e2e-notify-${process.pid}`
    const rx = receiver(name)
    await rx.bound
    writeManifest(suite.manifests, 'slow.yaml', slowPod)
    const started = Date.now()
    const child = spawn(process.execPath, knArgs(suite.dirs, ['watch', suite.manifests, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0']), {
      env: {...process.env, NO_COLOR: '1', NOTIFY_SOCKET: `@${name}`, WATCHDOG_USEC: '2000000'},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    try {
      const ready = await eventually(() => rx.messages.find((m) => m.msg.split('\n').includes('READY=1')), 60_000, `READY=1 (stderr: ${stderr})`)
      // Not before the readiness probe could pass, and with the counts of a Ready node.
      expect(ready.at - started).toBeGreaterThanOrEqual(READY_AFTER_S * 1000)
      expect(ready.msg).toContain('STATUS=1/1 pods ready')
      const before = rx.messages.filter((m) => m.at <= ready.at && m !== ready).map((m) => m.msg)
      expect(before).toContain('STATUS=0/1 pods ready')
      expect(before.some((m) => m.includes('READY=1'))).toBe(false)

      // WATCHDOG_USEC=2s: a ping every second.
      const pings = rx.messages.filter((m) => m.msg === 'WATCHDOG=1').length
      await new Promise((r) => setTimeout(r, 3_000))
      expect(rx.messages.filter((m) => m.msg === 'WATCHDOG=1').length - pings).toBeGreaterThanOrEqual(2)

      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      await eventually(() => rx.messages.find((m) => m.msg.startsWith('STOPPING=1')), 5_000, 'STOPPING=1')
    } finally {
      child.kill('SIGKILL')
      rx.proc.kill('SIGKILL')
    }
  })

  it('sends READY=1 after --notify-ready-timeout when a pod is never Ready, keeps STATUS, and keeps running', async () => {
    // A node name of its own: this test's pod is taken down by this test only.
    const node = 'notify-limit'
    const name = `kn-e2e-notify-limit-${process.pid}`
    const rx = receiver(name)
    await rx.bound
    writeManifest(
      suite.manifests,
      'never.yaml',
      `apiVersion: v1
kind: Pod
metadata: {name: never-ready}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "while true; do sleep 1; done"]
    readinessProbe: {exec: {command: ["false"]}, periodSeconds: 1}
`,
    )
    const limitS = 4
    const started = Date.now()
    const args = ['watch', suite.manifests, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0', '--notify-ready-timeout', `${limitS}s`]
    const child = spawn(process.execPath, knArgs(suite.dirs, args, ENDPOINT, node), {env: {...process.env, NO_COLOR: '1', NOTIFY_SOCKET: `@${name}`}, stdio: ['ignore', 'ignore', 'pipe']})
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    try {
      const ready = await eventually(() => rx.messages.find((m) => m.msg.split('\n').includes('READY=1')), 30_000, `READY=1 (stderr: ${stderr})`)
      const waited = ready.at - started
      // Not before the limit, and not long after it (the check runs at the limit itself).
      expect(waited).toBeGreaterThanOrEqual(limitS * 1000)
      expect(waited).toBeLessThan(limitS * 1000 + 3_000)
      expect(stderr).toContain('Telling systemd kube-node is ready although not every pod is at its goal')
      // The pod is still not Ready, and STATUS= says so; the daemon keeps running.
      expect(rx.messages.map((m) => m.msg).filter((m) => m.startsWith('STATUS=')).at(-1)).toMatch(/^STATUS=0\/1 pods ready/)
      await new Promise((r) => setTimeout(r, 2_000))
      expect(child.exitCode).toBe(null)
      expect(rx.messages.filter((m) => m.msg.split('\n').includes('READY=1'))).toHaveLength(1)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      child.kill('SIGKILL')
      rx.proc.kill('SIGKILL')
      await knAs(node, suite.dirs, ['down', '--all'])
    }
  })

  it('refuses a --notify-ready-timeout beyond 60s, the most kube-node waits', async () => {
    const r = await knAs('notify-limit', suite.dirs, ['watch', suite.manifests, '--port', '0', '--healthz-port', '0', '--notify-ready-timeout', '10m'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--notify-ready-timeout: "10m" is longer than 60s, the most it may be')
  })
})
