// `watch` through bin/run.js with a KubeletConfiguration: files holding credentials
// (staticPodURLHeader in --config, --manifest-url-header-file) readable by others get one warning
// each, naming the file and the fix; healthzBindAddress (and --healthz-bind-address over it) is
// where the /healthz-only server listens.
import {spawn} from 'node:child_process'
import {chmodSync, mkdirSync, writeFileSync} from 'node:fs'
import {createServer, connect} from 'node:net'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {ENDPOINT, eventually, knArgs, makeDirs} from './support.js'

const NODE = 'cfgfiles'
const dirs = makeDirs()
afterAll(() => dirs.cleanup())

/** A port free on every loopback address right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '0.0.0.0', () => {
      const {port} = s.address() as {port: number}
      s.close(() => resolve(port))
    })
  })
}

/** Whether something accepts TCP connections on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({host, port})
    c.once('connect', () => (c.destroy(), resolve(true)))
    c.once('error', () => resolve(false))
  })
}

/** Starts watch with `args`, waits until it serves, returns its stderr so far, and stops it. */
async function watchOnce(args: string[], healthz: {host: string; port: number}): Promise<{stderr: string; body: string}> {
  const manifests = join(dirs.work, 'manifests')
  const child = spawn(process.execPath, knArgs(dirs, ['watch', manifests, '--port', '0', ...args], ENDPOINT, NODE), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'ignore', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  try {
    await eventually(() => (stderr.includes('kube-node is watching') ? true : undefined), 30_000, `watch to start (stderr: ${stderr})`)
    const res = await fetch(`http://${healthz.host}:${healthz.port}/healthz`)
    const body = `${res.status} ${await res.text()}`
    // Nowhere else: the main address does not carry the healthz port.
    expect(await accepts('127.0.0.1', healthz.port)).toBe(healthz.host === '127.0.0.1')
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    return {stderr, body}
  } finally {
    child.kill('SIGKILL')
  }
}

const warnings = (stderr: string): string[] => stderr.split('\n').filter((l) => l.includes('A file holding credentials'))

describe('watch: credential files and healthzBindAddress (bin/run.js)', () => {
  it('warns about a readable --config with staticPodURLHeader and header file, and serves /healthz on healthzBindAddress', async () => {
    mkdirSync(join(dirs.work, 'manifests'), {recursive: true})
    const port = await freePort()
    const config = join(dirs.work, 'config.yaml')
    writeFileSync(
      config,
      `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
staticPodURLHeader:
  Authorization: ["Bearer s3cr3t-token"]
healthzBindAddress: 127.0.0.2
healthzPort: ${port}
`,
      {mode: 0o644},
    )
    chmodSync(config, 0o644)
    const headers = join(dirs.work, 'headers')
    writeFileSync(headers, 'X-Token: s3cr3t-header\n', {mode: 0o640})
    chmodSync(headers, 0o640)

    const first = await watchOnce(['--config', config, '--manifest-url-header-file', headers], {host: '127.0.0.2', port})
    expect(first.body).toBe('200 ok')
    const lines = warnings(first.stderr)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('readable by its group and every user')
    expect(lines[0]).toContain(`file=${config}`)
    expect(lines[0]).toContain(`fix="chmod 600 ${config}"`)
    expect(lines[1]).toContain('readable by its group:')
    expect(lines[1]).toContain(`fix="chmod 600 ${headers}"`)
    // The credentials themselves are never printed.
    expect(first.stderr).not.toMatch(/s3cr3t/)

    // Fixed as told: no warning. The flag wins over healthzBindAddress.
    chmodSync(config, 0o600)
    chmodSync(headers, 0o600)
    const second = await watchOnce(['--config', config, '--manifest-url-header-file', headers, '--healthz-bind-address', '127.0.0.3'], {host: '127.0.0.3', port})
    expect(second.body).toBe('200 ok')
    expect(warnings(second.stderr)).toEqual([])
  })
})
