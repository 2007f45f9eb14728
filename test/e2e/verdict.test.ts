// The verdict CI trusts: `run` exits 0 only for pods that run steadily (--stable-for, 5 s by
// default), fails a crashing or unstartable pod at once with its failure report, and always ends
// by its deadline or on SIGTERM, whatever the terminal. Through the shipped bin/run.js, on containerd.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, ROOT, ctrContainersWithLabel, knArgs, knAs, makeDirs, writeManifest} from './support.js'

const NODE = 'verdict'
const dirs = makeDirs()
const kn = (args: string[]): ReturnType<typeof knAs> => knAs(NODE, dirs, args)
const POD_NAME_LABEL = 'io.kubernetes.pod.name'
afterAll(() => dirs.cleanup())

function pod(name: string, script: string, extra = ''): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", ${JSON.stringify(script)}]
${extra}`
}

const FOREVER = 'echo up; while true; do sleep 1; done'

/** The result row of `name` in run's table: [NAME, READY, STATUS, RESTARTS, IP, RESULT]. */
function row(stdout: string, name: string): string[] | undefined {
  return stdout
    .split('\n')
    .find((l) => l.startsWith(`${name}-${NODE} `))
    ?.trim()
    .split(/\s+/)
}

describe('run: a verdict CI can trust (real containerd)', () => {
  beforeAll(async () => {
    await kn(['down', '--all'])
  })
  afterEach(async () => {
    await kn(['down', '--all'])
  })

  it('a container that exits at once fails the run (exit 1) with its exit code and last log line', async () => {
    const r = await kn(['run', '-f', writeManifest(dirs.work, 'crash-now.yaml', pod('crash-now', 'echo cannot read /etc/app.conf >&2; exit 3'))])
    expect(r.code, r.stderr).toBe(1)
    expect(row(r.stdout, 'crash-now')?.[5]).toBe('failed')
    expect(r.stdout).toContain('crash-now-verdict failed: container "main" exited with code 3 (Error)')
    expect(r.stdout).toMatch(/exit code: 3\n\s+restarts: 1\n/)
    expect(r.stdout).toContain('| cannot read /etc/app.conf')
  })

  it('a container that runs 3 s and then exits 4 fails the run, with --wait running and with --wait ready (no probe)', async () => {
    const file = writeManifest(dirs.work, 'crash-later.yaml', pod('crash-later', 'echo started; sleep 3; echo lost etcd >&2; exit 4'))
    for (const wait of ['running', 'ready']) {
      const r = await kn(['run', '-f', file, '--wait', wait])
      expect(r.code, `--wait ${wait}: ${r.stdout}${r.stderr}`).toBe(1)
      expect(row(r.stdout, 'crash-later')?.[5]).toBe('failed')
      expect(r.stdout).toMatch(/exited with code 4 \(Error\) \d+(\.\d)?s after it started and is in CrashLoopBackOff/)
      await kn(['down', '--all'])
    }
  })

  it('a healthy pod beside a crashing one: exit 1, the healthy row ok, the crashing row failed; -o json says which and why', async () => {
    const files = [writeManifest(dirs.work, 'healthy.yaml', pod('healthy', FOREVER)), writeManifest(dirs.work, 'crashing.yaml', pod('crashing', 'exit 2'))]
    const r = await kn(['run', '-f', files[0]!, '-f', files[1]!])
    expect(r.code, r.stderr).toBe(1)
    expect(row(r.stdout, 'healthy')).toEqual([`healthy-${NODE}`, '1/1', 'Running', '0', expect.any(String), 'ok'])
    expect(row(r.stdout, 'crashing')?.[5]).toBe('failed')
    await kn(['down', '--all'])
    const json = await kn(['run', '-f', files[0]!, '-f', files[1]!, '-o', 'json'])
    expect(json.code).toBe(1)
    const items = (JSON.parse(json.stdout) as {items: {metadata: {name: string; annotations?: Record<string, string>}}[]}).items
    const report = (name: string): {outcome: string; reason: string} | undefined => {
      const text = items.find((i) => i.metadata.name === `${name}-${NODE}`)?.metadata.annotations?.['kube-node.io/failure-report']
      return text === undefined ? undefined : (JSON.parse(text) as {outcome: string; reason: string})
    }
    expect(report('healthy')).toBeUndefined()
    expect(report('crashing')).toMatchObject({outcome: 'failed', reason: expect.stringMatching(/exited with code 2/)})
  })

  it('a pod that crashes once and then stays up succeeds, showing RESTARTS 1', async () => {
    const once = 'if [ -f /state/crashed ]; then echo up; while true; do sleep 1; done; else touch /state/crashed; echo first start fails >&2; exit 1; fi'
    const extra = '    volumeMounts: [{name: state, mountPath: /state}]\n  volumes: [{name: state, emptyDir: {}}]\n'
    const r = await kn(['run', '-f', writeManifest(dirs.work, 'once.yaml', pod('once', once, extra))])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(row(r.stdout, 'once')).toEqual([`once-${NODE}`, '1/1', 'Running', '1', expect.any(String), 'ok'])
  })

  it('an idempotent re-run of healthy pods exits 0 without waiting the window again', async () => {
    const file = writeManifest(dirs.work, 'steady.yaml', pod('steady', FOREVER))
    const first = await kn(['run', '-f', file, '--wait', 'ready'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toContain('not yet steady')
    // Let the container be older than the window, as a CI re-run finds it.
    await new Promise((r) => setTimeout(r, 1000))
    const again = await kn(['run', '-f', file, '--wait', 'ready'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).not.toContain('not yet steady')
    expect(row(again.stdout, 'steady')?.[5]).toBe('ok')
  })

  it('a wrong command fails the run at once with its reason, after one start attempt', async () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata: {name: wrong-cmd}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {name: main, image: "${BUSYBOX}", command: [slep, "3600"]}\n`
    const r = await kn(['run', '-f', writeManifest(dirs.work, 'wrong-cmd.yaml', text)])
    expect(r.code, r.stderr).toBe(1)
    expect(r.stdout).toMatch(/container "main" cannot start: RunContainerError .*"slep": executable file not found/)
    // One sandbox and one container instance: the run did not hammer the runtime with restarts.
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `wrong-cmd-${NODE}`)).toHaveLength(2)
  })

  it('a full disk under --root-dir: the run ends by its deadline naming ENOSPC, warns once, and creates nothing', async () => {
    const full = {rootDir: join(dirs.work, 'full-root'), logsDir: dirs.logsDir}
    mkdirSync(full.rootDir, {recursive: true})
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0750', 'tmpfs', full.rootDir], {encoding: 'utf8'})
    expect(mount.status, mount.stderr).toBe(0)
    try {
      try {
        writeFileSync(join(full.rootDir, 'filler'), Buffer.alloc(512 * 1024))
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC')
      }
      const r = await knAs(NODE, full, ['run', '-f', writeManifest(dirs.work, 'full.yaml', pod('full', FOREVER)), '--timeout', '4s'])
      expect(r.code, r.stderr).toBe(1)
      expect(r.stdout).toMatch(/full-verdict did not reach its goal: timed out: pod is Pending: CreatePodSandboxError: cannot prepare the pod's directory: ENOSPC/)
      // One warning per record, not one per sync.
      expect(r.stderr.match(/Could not write/g)?.length ?? 0).toBeLessThanOrEqual(2)
      expect(ctrContainersWithLabel(POD_NAME_LABEL, `full-${NODE}`)).toEqual([])
      // The failed writes left no temporary files to fill what space comes back.
      expect(readdirSync(full.rootDir, {recursive: true, encoding: 'utf8'}).filter((f) => f.endsWith('.tmp'))).toEqual([])
      // watch does not start on it: its lock would name no holder. One sentence naming the file.
      const w = await knAs(NODE, full, ['watch', join(dirs.work, 'no-manifests'), '--port', '0', '--healthz-port', '0'])
      expect(w.code).toBe(1)
      expect(w.stderr.trim()).toBe(`error: cannot write this process's PID into the lock file ${join(full.rootDir, 'kube-node.lock')}: ENOSPC: no space left on device, write`)
    } finally {
      spawnSync('umount', [full.rootDir])
    }
  })
})

describe('run under a pseudo-terminal of 0 columns (real containerd)', () => {
  // A run that hangs (the bug this guards against) must not outlive its test.
  const children: ChildProcess[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    spawnSync('pkill', ['-KILL', '-f', `${dirs.work}/narrow`])
    await kn(['down', '--all'])
  })

  /** `run` of a pod that is never Ready, under `script` with a 0-column terminal; its output bounded. */
  function underZeroColumnPty(manifest: string, timeout: string): {done: Promise<{code: number | null; bytes: number}>} {
    const cmd = ['node', ...knArgs(dirs, ['run', '-f', manifest, '--wait', 'ready', '--timeout', timeout], undefined, NODE)].map((a) => `'${a}'`).join(' ')
    const child = spawn('script', ['-qec', `stty cols 0 rows 0; exec ${cmd}`, '/dev/null'], {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
    children.push(child)
    let bytes = 0
    const count = (d: Buffer): void => void (bytes += d.length)
    child.stdout.on('data', count)
    child.stderr.on('data', count)
    return {done: new Promise((r) => child.on('close', (code) => r({code, bytes})))}
  }

  const neverReady = (name: string): string =>
    writeManifest(dirs.work, `${name}.yaml`, pod(name, FOREVER, '    readinessProbe:\n      exec: {command: ["false"]}\n      periodSeconds: 1\n'))

  it('ends at --timeout with exit 1 and a bounded output', async () => {
    const {done} = underZeroColumnPty(neverReady('narrow'), '6s')
    const {code, bytes} = await done
    expect(code).toBe(1)
    expect(bytes).toBeLessThan(64 * 1024)
  })

  it('ends at once on SIGTERM', async () => {
    const manifest = neverReady('narrow-term')
    const {done} = underZeroColumnPty(manifest, '5m')
    const pid = await new Promise<number>((resolve, reject) => {
      const deadline = Date.now() + 20_000
      const look = (): void => {
        const found = spawnSync('pgrep', ['-f', `run -f ${manifest}`], {encoding: 'utf8'}).stdout.split('\n').filter(Boolean).map(Number)
        const node = found.find((p) => spawnSync('cat', [`/proc/${p}/comm`], {encoding: 'utf8'}).stdout.trim() === 'node')
        if (node !== undefined) return resolve(node)
        if (Date.now() > deadline) return reject(new Error('run did not start'))
        setTimeout(look, 200)
      }
      look()
    })
    // Give it time to start the pod and to draw its progress.
    await new Promise((r) => setTimeout(r, 2000))
    const sent = Date.now()
    process.kill(pid, 'SIGTERM')
    const {bytes} = await done
    expect(Date.now() - sent).toBeLessThan(10_000)
    expect(bytes).toBeLessThan(64 * 1024)
  })
})
