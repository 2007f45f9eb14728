// Operator commands against a real containerd: logs, exec, plan and version.
import {spawn} from 'node:child_process'
import {appendFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {NODE, eventually, kn, knArgs, makeDirs, podYaml, writeManifest} from './support.js'

const dirs = makeDirs()

describe('operator commands (real containerd)', () => {
  let manifest: string
  beforeAll(async () => {
    manifest = writeManifest(dirs.work, 'talk.yaml', podYaml('talk', {command: 'echo line-one; sleep 1; echo line-two >&2; trap "exit 0" TERM; while true; do sleep 1 & wait $!; done'}))
    const r = await kn(dirs, ['run', '-f', manifest])
    expect(r.code, r.stderr).toBe(0)
  })
  afterAll(async () => {
    await kn(dirs, ['down', '--all'])
    dirs.cleanup()
  })

  it('logs prints the container output from its CRI log file', async () => {
    let r = await kn(dirs, ['logs', 'talk'])
    for (let i = 0; i < 20 && !r.stdout.includes('line-two'); i++) {
      await new Promise((res) => setTimeout(res, 250))
      r = await kn(dirs, ['logs', 'talk'])
    }
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('line-one\nline-two\n')
    const ts = await kn(dirs, ['logs', `talk-${NODE}`, '--tail', '1', '--timestamps'])
    expect(ts.stdout).toMatch(/^\d{4}-\d\d-\d\dT\S+Z line-two\n$/)
  })

  it('logs -f prints what is appended at once, not when enough has gathered, and stops cleanly on SIGINT', async () => {
    const child = spawn(process.execPath, knArgs(dirs, ['logs', '-f', '--tail', '1', 'talk']), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    try {
      await eventually(() => (out.includes('line-two') ? true : undefined), 20_000, 'the last line before following')
      const log = readdirSync(dirs.logsDir, {recursive: true, encoding: 'utf8'}).find((f) => f.endsWith('.log'))
      expect(log).toBeDefined()
      appendFileSync(join(dirs.logsDir, log!), `${new Date().toISOString()} stdout F appended while following\n`)
      await eventually(() => (out.includes('appended while following\n') ? true : undefined), 10_000, 'the appended line')
      expect(out).toBe('line-two\nappended while following\n')
    } finally {
      child.kill('SIGINT')
    }
    expect(await exited).toBe(0)
  })

  it('exec runs a command and passes its exit code on', async () => {
    const ok = await kn(dirs, ['exec', 'talk', '--', 'cat', '/etc/hostname'])
    expect(ok.code).toBe(0)
    expect(ok.stdout.trim()).toBe(`talk-${NODE}`)
    const fail = await kn(dirs, ['exec', 'talk', '--', 'sh', '-c', 'echo out; exit 7'])
    expect(fail.code).toBe(7)
    expect(fail.stdout).toBe('out\n')
  })

  it('plan -o json shows no actions for a converged pod and a pull + start for a new one', async () => {
    const same = await kn(dirs, ['plan', '-f', manifest, '-o', 'json'])
    expect(same.code).toBe(0)
    expect((JSON.parse(same.stdout) as {pods: {actions: unknown[]}[]}).pods[0]!.actions).toEqual([])
    const other = writeManifest(dirs.work, 'new.yaml', podYaml('fresh'))
    const plan = JSON.parse((await kn(dirs, ['plan', '-f', other, '-o', 'json'])).stdout) as {pods: {actions: {type: string}[]}[]}
    expect(plan.pods[0]!.actions.map((a) => a.type)).toEqual(['PullImage', 'CreateSandbox', 'StartContainer'])
  })

  it('version shows the runtime', async () => {
    const r = await kn(dirs, ['version', '-o', 'json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({runtime: {runtimeName: 'containerd', runtimeApiVersion: 'v1'}})
  })
})

describe('manifests from standard input', () => {
  const stdinDirs = makeDirs()
  afterAll(() => stdinDirs.cleanup())

  it('validate -f - reads the pod from stdin and names <stdin> in errors', async () => {
    const ok = await kn(stdinDirs, ['validate', '-f', '-'], podYaml('piped'))
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain(`pod/piped-${NODE} valid`)
    const bad = await kn(stdinDirs, ['validate', '-f', '-'], podYaml('piped').replace('name: main', 'name: Main'))
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('<stdin>, document 0, field spec.containers[0].name')
  })
})
