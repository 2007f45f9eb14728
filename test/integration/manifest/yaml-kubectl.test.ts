// kube-node reads YAML as kubectl reads it: the real kubectl (when installed; scripts/test.sh
// installs it) decodes each fixture offline with `kubectl label --local -f F x=y -o json`, and
// kube-node's decoded object must equal kubectl's, minus the added label. The fixtures are
// kube-node's own, one YAML 1.1 quirk family each (yaml-1.1/*.yaml); those kubectl refuses
// (yaml-1.1/refused/) kube-node must refuse too, and those under yaml-1.1/stricter/ kubectl
// --local accepts but kube-node refuses on purpose (duplicate keys: the API server's strict field
// validation, kubectl's default since 1.27, refuses them as well).
import {execFile} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'
import {decodeManifest} from '../../../src/manifest/decode.js'

const run = promisify(execFile)
const KUBECTL = process.env['KUBECTL'] ?? 'kubectl'
const haveKubectl = await run(KUBECTL, ['version', '--client']).then(
  () => true,
  () => false,
)

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'yaml-1.1')
const yamlFiles = (dir: string): string[] => readdirSync(join(FIXTURES, dir)).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(dir, f))

type KubectlResult = {object: Record<string, unknown>} | {error: string}

async function kubectlDecode(file: string): Promise<KubectlResult> {
  try {
    const r = await run(KUBECTL, ['label', '--local', '-f', join(FIXTURES, file), 'x=y', '-o', 'json'], {env: {...process.env, KUBECONFIG: '/dev/null', HOME: '/nonexistent'}})
    const object = JSON.parse(r.stdout) as Record<string, unknown>
    // The label kubectl was asked to add; the labels map goes too when it held only that.
    const metadata = object['metadata'] as {labels?: Record<string, string>}
    delete metadata.labels?.['x']
    if (metadata.labels !== undefined && Object.keys(metadata.labels).length === 0) delete metadata.labels
    return {object}
  } catch (err) {
    return {error: (err as {stderr?: string}).stderr ?? String(err)}
  }
}

function kubeNodeDecode(file: string): {objects: unknown[]; issues: string[]} {
  const r = decodeManifest(file, readFileSync(join(FIXTURES, file), 'utf8'))
  return {objects: r.objects.map((o) => o.object), issues: r.issues.map((i) => i.message)}
}

describe.runIf(haveKubectl)('YAML decoded as the real kubectl decodes it', () => {
  it.each(yamlFiles('.'))('%s: the same object', async (file) => {
    const expected = await kubectlDecode(file)
    expect(expected).toHaveProperty('object')
    const got = kubeNodeDecode(file)
    expect(got.issues).toEqual([])
    expect(got.objects).toEqual([(expected as {object: unknown}).object])
  })

  it.each(yamlFiles('refused'))('%s: refused by both', async (file) => {
    expect(await kubectlDecode(file)).toHaveProperty('error')
    const got = kubeNodeDecode(file)
    expect(got.objects).toEqual([])
    expect(got.issues).toHaveLength(1)
    expect(got.issues[0]).toMatch(/^invalid YAML: /)
  })

  it.each(yamlFiles('stricter'))('%s: accepted by kubectl --local, refused by kube-node', async (file) => {
    expect(await kubectlDecode(file)).toHaveProperty('object')
    expect(kubeNodeDecode(file).issues).toEqual([expect.stringMatching(/^invalid YAML: map keys must be unique at line \d+, column \d+$/)])
  })
})

describe('the fixtures', () => {
  it('exist, so the comparison above cannot pass by finding none', () => {
    expect(yamlFiles('.').length).toBeGreaterThanOrEqual(8)
    expect(yamlFiles('refused').length).toBeGreaterThanOrEqual(20)
    expect(yamlFiles('stricter').length).toBeGreaterThanOrEqual(3)
  })
})
