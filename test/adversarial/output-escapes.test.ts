// Text from manifests and the runtime, printed by the shipped bin/run.js and served by a real
// `watch`: `get pods -o yaml|json` write a bidi override in the format's own escapes (and parse
// back to the same value), and the API's Table cells (what kubectl prints as it comes) carry an
// exec probe's escape sequences escaped.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {spawnSync} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {eventually, knAs, makeDirs, podYaml} from '../e2e/support.js'
import {argsAs, startWatchAs, type Watch} from './support/daemon.js'
import {readApiCredential} from '../../src/node/api-credential.js'

const NODE = 'adv-output-escapes'
const dirs = makeDirs()
const manifests = join(dirs.work, 'manifests')
const NOTE = 'left\u202Eright \u009b31m del\u007f'
// C0, C1 (except NEL), DEL and the bidi marks, none of which may reach a terminal raw.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** A pod with a hostile annotation whose readiness probe prints a clear-screen and a bidi override, and fails. */
const hostile = podYaml('hostile')
  .replace('  labels:\n', `  annotations:\n    note: ${JSON.stringify(NOTE)}\n  labels:\n`)
  .replace(
    '  - name: main\n',
    `  - name: main\n    readinessProbe:\n      exec: {command: ["sh", "-c", "printf 'boom\\\\033[2J\\\\342\\\\200\\\\256'; exit 1"]}\n      periodSeconds: 1\n`,
  )

describe('output of text from input (real containerd)', () => {
  let watch: Watch
  beforeAll(async () => {
    mkdirSync(manifests, {recursive: true})
    writeFileSync(join(manifests, 'hostile.yaml'), hostile)
    watch = await startWatchAs(NODE, dirs, manifests)
  })
  afterAll(async () => {
    await watch.stop()
    spawnSync(process.execPath, argsAs(NODE, dirs, ['down', '--all']))
    dirs.cleanup()
  })

  it('get pods -o yaml and -o json: the annotation is escaped, and reads back the same', async () => {
    await eventually(async () => ((await knAs(NODE, dirs, ['get', 'pods', 'hostile', '-o', 'json'])).code === 0 ? true : undefined), 60_000, 'the pod to exist')
    const yaml = await knAs(NODE, dirs, ['get', 'pods', 'hostile', '-o', 'yaml'])
    expect(yaml.code, yaml.stderr).toBe(0)
    expect(yaml.stdout).not.toMatch(RAW)
    expect(yaml.stdout).toContain('note: "left\\u202eright \\u009b31m del\\u007f"')
    // One pod named: the Pod itself, as kubectl prints it.
    expect((parse(yaml.stdout) as {metadata: {annotations: Record<string, string>}}).metadata.annotations['note']).toBe(NOTE)
    const json = await knAs(NODE, dirs, ['get', 'pods', 'hostile', '-o', 'json'])
    expect(json.stdout).not.toMatch(RAW)
    expect((JSON.parse(json.stdout) as {metadata: {annotations: Record<string, string>}}).metadata.annotations['note']).toBe(NOTE)
  })

  it("the API's Table cells carry the probe's output escaped", async () => {
    // Events need the credential `kube-node kubeconfig` prints (root's, as kubectl's would be).
    const credential = await eventually(() => readApiCredential(dirs.rootDir), 30_000, 'the API credential')
    const table = await eventually(async () => {
      const headers = {accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', authorization: `Bearer ${credential.token}`}
      const res = await fetch(`http://127.0.0.1:${watch.port}/api/v1/namespaces/default/events`, {headers, signal: AbortSignal.timeout(5000)})
      const body = (await res.json()) as {rows?: Array<{cells: unknown[]}>}
      return body.rows?.some((r) => r.cells[2] === 'Unhealthy' && String(r.cells[3]).includes('hostile')) ? body : undefined
    }, 60_000, 'the Unhealthy event')
    const unhealthy = table.rows!.find((r) => r.cells[2] === 'Unhealthy' && String(r.cells[3]).includes('hostile'))!
    for (const cell of unhealthy.cells) if (typeof cell === 'string') expect(cell).not.toMatch(RAW)
    expect(String(unhealthy.cells[6])).toContain('boom\\x1b[2J\\u202e')
  })
})
