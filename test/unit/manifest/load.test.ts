import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {buildManifests} from '../../../src/manifest/build.js'
import {loadStaticPods} from '../../../src/manifest/load.js'
import type {ManifestIO} from '../../../src/manifest/read.js'
import {formatIssue, InvalidInputError} from '../../../src/util/errors.js'

const fixtures = fileURLToPath(new URL('../../fixtures/manifests/', import.meta.url))
const fixture = (path: string) => readFileSync(`${fixtures}${path}`, 'utf8')

/** Files served from memory; every path is a file. */
function filesIO(files: Record<string, string>): ManifestIO {
  return {
    stat: async (p) => {
      if (!(p in files)) throw Object.assign(new Error('missing'), {code: 'ENOENT'})
      return {isFile: () => true, isDirectory: () => false, size: files[p]!.length}
    },
    readFile: async (p) => Buffer.from(files[p] ?? ''),
  }
}

const podYaml = (name: string, image = 'nginx:1.27', namespace?: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n  containers:\n  - name: app\n    image: ${image}\n`

async function loadError(files: Record<string, string>): Promise<InvalidInputError> {
  const err = await loadStaticPods(Object.keys(files), {nodeName: 'node-1', io: filesIO(files)}).catch((e: unknown) => e)
  if (!(err instanceof InvalidInputError)) throw new Error(`expected an InvalidInputError, got ${String(err)}`)
  return err
}

describe('loadStaticPods', () => {
  it('loads pods of every location in order, with their source', async () => {
    const files = {'pods/a.yaml': `${podYaml('a')}---\n${podYaml('b')}`, 'https://h/c.yaml': podYaml('c')}
    const io: ManifestIO = {
      ...filesIO(files),
      fetch: async () => ({status: 200, statusText: 'OK', body: (async function* () { yield Buffer.from(podYaml('c')) })()}),
    }
    const {pods} = await loadStaticPods(['pods/a.yaml', 'https://h/c.yaml'], {nodeName: 'node-1', io})
    expect(pods.map((p) => [p.pod.metadata.name, p.source])).toEqual([
      ['a-node-1', {kind: 'file', location: 'pods/a.yaml', document: 0}],
      ['b-node-1', {kind: 'file', location: 'pods/a.yaml', document: 1}],
      ['c-node-1', {kind: 'http', location: 'https://h/c.yaml', document: 0}],
    ])
  })

  it('rejects the same namespace/name defined twice, naming both places', async () => {
    const err = await loadError({'a.yaml': podYaml('web'), 'b.yaml': podYaml('web', 'nginx:1.28', 'default')})
    expect(err.message).toBe('b.yaml, document 0, field metadata.name: duplicate pod "default/web": also defined in a.yaml, document 0')
  })

  it('allows the same name in different namespaces', async () => {
    const files = {'a.yaml': podYaml('web'), 'b.yaml': podYaml('web', 'nginx', 'infra')}
    const {pods} = await loadStaticPods(Object.keys(files), {nodeName: 'node-1', io: filesIO(files)})
    expect(new Set(pods.map((p) => p.pod.metadata.uid)).size).toBe(2)
  })

  it('names a List item in the duplicate message', async () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${JSON.stringify({apiVersion: 'v1', kind: 'Pod', metadata: {name: 'x'}, spec: {containers: [{name: 'c', image: 'busybox'}]}})}\n`
    const err = await loadError({'l.yaml': list, 'x.yaml': podYaml('x')})
    expect(err.message).toBe('x.yaml, document 0, field metadata.name: duplicate pod "default/x": also defined in l.yaml, document 0, item 0')
  })

  it('rejects everything when one document among valid ones is invalid, reporting every issue', async () => {
    const files = {
      'pods/ok.yaml': podYaml('ok'),
      'pods/web.yaml': `${podYaml('web')}---\n${podYaml('api', '""')}`,
      'pods/db.yaml': podYaml('db', 'Postgres'),
    }
    const err = await loadError(files)
    expect(err.issues.map(formatIssue)).toEqual([
      'pods/web.yaml, document 1, field spec.containers[0].image: must be set',
      'pods/db.yaml, document 0, field spec.containers[0].image: "Postgres" is not a valid image reference',
    ])
    expect(err.message).toBe(
      '2 problems: pods/web.yaml, document 1, field spec.containers[0].image: must be set; ' +
        'pods/db.yaml, document 0, field spec.containers[0].image: "Postgres" is not a valid image reference',
    )
  })

  it('reports reading errors before anything is decoded', async () => {
    const err = await loadStaticPods(['missing.yaml'], {nodeName: 'n', io: filesIO({})}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(InvalidInputError)
    expect((err as Error).message).toBe('missing.yaml, document 0: no such file or directory')
  })

  it('returns ConfigMaps and Secrets with a default namespace', async () => {
    const {pods, configMaps} = await loadStaticPods(['m.yaml'], {nodeName: 'n', io: filesIO({'m.yaml': fixture('valid/multi.yaml')})})
    expect(pods.map((p) => p.manifestName)).toEqual(['first', 'second'])
    expect(configMaps).toEqual([{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'settings', namespace: 'default'}, data: {level: 'debug'}}])
  })
})

describe('fixtures', () => {
  const build = (dir: string, name: string) =>
    buildManifests([{location: name, source: 'file', text: fixture(`${dir}/${name}`)}], {nodeName: 'node-1'})

  it.each(readdirSync(`${fixtures}valid`))('valid/%s loads without issues', (name) => {
    const result = build('valid', name)
    expect(result.issues.map(formatIssue)).toEqual([])
    expect(result.pods.length).toBeGreaterThan(0)
  })

  it.each(readdirSync(`${fixtures}invalid`).filter((n) => n.endsWith('.yaml')))('invalid/%s gives the expected errors', (name) => {
    const expected = fixture(`invalid/${name.replace(/\.yaml$/, '.expected')}`).trim().split('\n')
    const result = build('invalid', name)
    expect(result.issues.map(formatIssue)).toEqual(expected)
    expect(result.pods).toEqual([])
  })

  it('defaults the kubeadm etcd pod like the kubelet', () => {
    const [etcd] = build('valid', 'etcd.yaml').pods
    expect(etcd?.pod.metadata).toMatchObject({name: 'etcd-node-1', namespace: 'kube-system'})
    expect(etcd?.pod.spec.containers[0]?.startupProbe?.successThreshold).toBe(1)
    expect(etcd?.pod.spec.volumes?.[0]?.hostPath).toEqual({path: '/etc/kubernetes/pki/etcd', type: 'DirectoryOrCreate'})
  })
})

describe('an input with no Pod (kubectl: "no objects passed")', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n'
  const secret = 'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n'

  it.each([
    ['an empty file', ''],
    ['only comments', '# nothing here\n'],
    ['only separators', '---\n---\n...\n'],
    ['an empty List', 'apiVersion: v1\nkind: List\nitems: []\n'],
  ])('a location with %s is invalid input naming it, even beside pods', async (_what, text) => {
    const err = await loadError({'pods.yaml': podYaml('a'), 'empty.yaml': text})
    expect(err.issues).toEqual([{location: 'empty.yaml', document: 0, field: '', message: expect.stringContaining('holds no objects')}])
  })

  it.each([
    ['a ConfigMap', cm],
    ['a Secret', secret],
    ['a ConfigMap and a Secret', `${cm}---\n${secret}`],
  ])('a location of only %s beside another location\'s pod is fine', async (_what, text) => {
    const set = await loadStaticPods(['pod.yaml', 'config.yaml'], {nodeName: 'node-1', io: filesIO({'pod.yaml': podYaml('a'), 'config.yaml': text})})
    expect([set.pods.length, set.configMaps.length + set.secrets.length]).toEqual([1, text === cm || text === secret ? 1 : 2])
  })

  it('the ConfigMap may come first', async () => {
    const set = await loadStaticPods(['config.yaml', 'pod.yaml'], {nodeName: 'node-1', io: filesIO({'config.yaml': cm, 'pod.yaml': podYaml('a')})})
    expect(set.pods.map((p) => p.manifestName)).toEqual(['a'])
  })

  it('is fine beside pods in the same location (a ConfigMap next to its pod)', async () => {
    const {pods, configMaps} = await loadStaticPods(['both.yaml'], {nodeName: 'node-1', io: filesIO({'both.yaml': `${cm}---\n${podYaml('a')}`})})
    expect([pods.length, configMaps.length]).toEqual([1, 1])
  })

  it('a whole input of only ConfigMaps and Secrets is invalid input, in one location or several', async () => {
    expect((await loadError({'config.yaml': cm})).issues.map(formatIssue)).toEqual([
      'config.yaml, document 0: holds no Pod, only ConfigMaps or Secrets: give the pods that use them too, in the same or another location',
    ])
    expect((await loadError({'a.yaml': cm, 'b.yaml': secret})).issues.map(formatIssue)).toEqual([
      'a.yaml, document 0: none of the locations given (a.yaml, b.yaml) holds a Pod, only ConfigMaps or Secrets: give the pods that use them too, in the same or another location',
    ])
  })
})

describe("the Kubernetes documentation's example pods (fixtures named docs-*)", () => {
  const docs = (dir: string) => readdirSync(`${fixtures}${dir}`).filter((n) => n.startsWith('docs-') && n.endsWith('.yaml'))

  it.each(docs('valid').filter((n) => /^kind: (ConfigMap|Secret)$/m.test(fixture(`valid/${n}`))))(
    'valid/%s loads with its ConfigMaps and Secrets in another -f than its pods',
    async (name) => {
      const parts = fixture(`valid/${name}`).split(/^---\s*$/m).filter((d) => /^kind:/m.test(d))
      const config = parts.filter((d) => /^kind: (ConfigMap|Secret)$/m.test(d)).join('---\n')
      const pods = parts.filter((d) => /^kind: Pod$/m.test(d)).join('---\n')
      const set = await loadStaticPods(['pods.yaml', 'config.yaml'], {nodeName: 'node-1', io: filesIO({'pods.yaml': pods, 'config.yaml': config})})
      expect(set.pods.length).toBeGreaterThan(0)
      expect(set.configMaps.length + set.secrets.length).toBeGreaterThan(0)
    },
  )

  it.each(docs('invalid'))('invalid/%s is refused with reasons, never a bare unknown field', (name) => {
    const {issues} = buildManifests([{location: name, source: 'file', text: fixture(`invalid/${name}`)}], {nodeName: 'node-1'})
    expect(issues.length).toBeGreaterThan(0)
    for (const i of issues) expect(i.message).not.toMatch(/^unknown field \(not in the Kubernetes v[\d.]+ API\)$/)
  })
})
