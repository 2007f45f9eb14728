// bench/fields.mjs over our own manifests (test/fixtures/fields): one line per file with the
// built CLI's verdict, hostile file names escaped, links not followed, and with --run the real
// runtime's answer, every pod brought down again.
import {spawn} from 'node:child_process'
import {cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ENDPOINT, NODE, ROOT, ctrContainersWithLabel, makeDirs, type Result} from './support.js'

const dirs = makeDirs()
let manifests: string

function report(args: string[]): Promise<Result> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/fields.mjs'), ...args], {stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolvePromise({code: code ?? -1, stdout, stderr}))
  })
}

beforeAll(() => {
  manifests = mkdtempSync(join(tmpdir(), 'kn-fields-'))
  cpSync(join(ROOT, 'test/fixtures/fields'), manifests, {recursive: true})
  // A name that would run a command in a shell and break the line on a terminal, and a link.
  writeFileSync(join(manifests, 'typos', 'x$(touch pwned)\u001b[31m\nred.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: Bad}\n')
  symlinkSync('/etc/passwd', join(manifests, 'passwd.yaml'))
})

afterAll(() => {
  rmSync(manifests, {recursive: true, force: true})
  dirs.cleanup()
})

const REFUSED = [
  'storage/nfs.yaml: refused: document 0, field spec.volumes[0].nfs: is not supported: kube-node runs no storage plugins: mount it on the host and use a hostPath volume',
  'storage/runtime-class.json: refused: document 0, field spec.runtimeClassName: is not supported: a RuntimeClass, which maps the name to a runtime handler, is an object of the API server, which a standalone node does not have; configure the runtime\'s default handler instead',
  'typos/misspelt.yml: invalid: document 0, field spec.containers[0].resouces: unknown field (did you mean "resources"?)',
  'typos/x$(touch pwned)\\x1b[31m\\x0ared.yaml: invalid: document 0, field metadata.name: "Bad" must be a DNS-1123 subdomain: lower-case letters, digits, \'-\' and \'.\', starting and ending with a letter or digit',
]

describe('bench/fields.mjs', () => {
  it('prints a verdict per manifest file and a summary', async () => {
    const r = await report([manifests])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'exits.yaml: validates',
      'passwd.yaml: skipped: a symbolic link, not followed',
      ...REFUSED,
      'web.yaml: validates',
      'summary: 7 files: 2 validates, 2 refused, 2 invalid, 1 skipped',
    ])
    // The hostile name went through no shell, here or in kube-node.
    expect(existsSync(join(manifests, 'typos', 'pwned')) || existsSync(join(ROOT, 'pwned'))).toBe(false)
  })

  it('with --run, runs each valid file on the runtime and brings it down again', async () => {
    const globals = ['--runtime-endpoint', ENDPOINT, '--root-dir', dirs.rootDir, '--pod-logs-dir', dirs.logsDir, '--node-name', NODE]
    const r = await report([manifests, '--run', '--timeout', '60s', '--', ...globals])
    expect(r.stderr).toBe('')
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(new RegExp(`^exits\\.yaml: does not run: fields-exits-${NODE}: .*\\(job: terminated: Error, exit code 3\\)$`))
    expect(lines.slice(1, -2)).toEqual(['passwd.yaml: skipped: a symbolic link, not followed', ...REFUSED])
    expect(lines.at(-2)).toBe('web.yaml: runs')
    expect(lines.at(-1)).toBe('summary: 7 files: 1 runs, 1 does not run, 2 refused, 2 invalid, 1 skipped')
    for (const name of [`fields-web-${NODE}`, `fields-exits-${NODE}`]) expect(ctrContainersWithLabel('io.kubernetes.pod.name', name)).toEqual([])
  }, 300_000)
})
