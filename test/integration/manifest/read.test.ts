import {mkdtemp, writeFile, rm, mkdir} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {parseLocation} from '../../../src/manifest/location.js'
import {MAX_MANIFEST_BYTES, readManifests, type FileStat, type HttpResponse, type ManifestIO} from '../../../src/manifest/read.js'
import {InvalidInputError} from '../../../src/util/errors.js'
import {diskIO} from '../../support/disk-io.js'

/** An in-memory file system: paths ending in '/' are directories, everything else files. */
function memoryFs(files: Record<string, string | number>): ManifestIO {
  const isDir = (p: string) => Object.keys(files).some((f) => f.startsWith(`${p}/`))
  const enoent = () => Object.assign(new Error('ENOENT: no such file'), {code: 'ENOENT'})
  return {
    stat: async (p): Promise<FileStat> => {
      if (isDir(p)) return {isFile: () => false, isDirectory: () => true, size: 0}
      const f = files[p]
      if (f === undefined) throw enoent()
      return {isFile: () => true, isDirectory: () => false, size: typeof f === 'number' ? f : Buffer.byteLength(f)}
    },
    readdir: async (p) => {
      const names = new Set<string>()
      for (const f of Object.keys(files)) if (f.startsWith(`${p}/`)) names.add(f.slice(p.length + 1).split('/')[0]!)
      // Unsorted on purpose: the reader sorts.
      return [...names].reverse()
    },
    readFile: async (p) => {
      const f = files[p]
      if (f === undefined) throw enoent()
      return typeof f === 'number' ? new Uint8Array(f) : Buffer.from(f)
    },
  }
}

function response(status: number, body: string, statusText = ''): HttpResponse {
  return {status, statusText, body: (async function* () { yield Buffer.from(body) })()}
}

async function readError(locations: string[], io: ManifestIO): Promise<string[]> {
  try {
    await readManifests(locations, io)
  } catch (err) {
    if (err instanceof InvalidInputError) return err.issues.map((i) => `${i.location} [${i.document}] ${i.message}`)
    throw err
  }
  throw new Error('expected an InvalidInputError')
}

describe('readManifests', () => {
  it('reads a directory: yaml, yml and json only, no dotfiles, no sub-directories, sorted by name', async () => {
    const io = memoryFs({
      'pods/b.yaml': 'b', 'pods/a.yml': 'a', 'pods/c.json': 'c', 'pods/.hidden.yaml': 'h', 'pods/notes.txt': 't',
      'pods/sub/d.yaml': 'd', 'pods/sub.yaml/e.yaml': 'e', 'pods/UPPER.YAML': 'u',
    })
    const blobs = await readManifests(['pods'], io)
    expect(blobs.map((b) => [b.location, b.text])).toEqual([
      ['pods/UPPER.YAML', 'u'], ['pods/a.yml', 'a'], ['pods/b.yaml', 'b'], ['pods/c.json', 'c'],
    ])
    expect(blobs.every((b) => b.source === 'file')).toBe(true)
  })

  it('reads a single file whatever its extension, and an empty directory as nothing', async () => {
    const io = memoryFs({'pod.txt': 'x', 'empty/.keep': ''})
    expect(await readManifests(['pod.txt'], io)).toEqual([{location: 'pod.txt', source: 'file', text: 'x'}])
    expect(await readManifests(['empty'], io)).toEqual([])
  })

  it('reports a missing file', async () => {
    expect(await readError(['nope.yaml'], memoryFs({}))).toEqual(['nope.yaml [0] no such file or directory'])
  })

  it('reports a file over 10 MiB, and every bad location at once', async () => {
    const io = memoryFs({'big.yaml': MAX_MANIFEST_BYTES + 1})
    expect(await readError(['big.yaml', 'gone.yaml'], io)).toEqual([
      'big.yaml [0] is larger than the 10 MiB limit for a manifest',
      'gone.yaml [0] no such file or directory',
    ])
  })

  it('reads standard input once', async () => {
    const io: ManifestIO = {stdin: async () => Buffer.from('kind: Pod')}
    expect(await readManifests(['-'], io)).toEqual([{location: '-', source: 'stdin', text: 'kind: Pod'}])
    expect(await readError(['-', '-'], io)).toEqual(['- [0] standard input can be given only once'])
  })

  it('fetches a URL with the configured headers and a timeout signal', async () => {
    const calls: Array<{url: string; headers: Array<[string, string]>; signal: AbortSignal}> = []
    const io: ManifestIO = {
      httpHeaders: [['Authorization', 'Bearer t']],
      fetch: async (url, init) => {
        calls.push({url, ...init})
        return response(200, 'kind: Pod')
      },
    }
    expect(await readManifests(['https://example.com/pods.yaml'], io)).toEqual([
      {location: 'https://example.com/pods.yaml', source: 'http', text: 'kind: Pod'},
    ])
    expect(calls[0]?.headers).toEqual([['Authorization', 'Bearer t']])
    expect(calls[0]?.signal).toBeInstanceOf(AbortSignal)
  })

  it.each<[string, ManifestIO['fetch'], string]>([
    ['a non-200 status', async () => response(404, '', 'Not Found'), 'GET returned HTTP 404 Not Found, expected 200'],
    ['a timeout', async () => { throw new DOMException('timed out', 'TimeoutError') }, 'no response within 10s'],
    ['a refused connection', async () => { throw new TypeError('fetch failed', {cause: new Error('connect ECONNREFUSED')}) }, 'GET failed: fetch failed (connect ECONNREFUSED)'],
    ['a body over 10 MiB', async () => ({status: 200, statusText: 'OK', body: (async function* () {
      for (let i = 0; i < 11; i++) yield new Uint8Array(1024 * 1024)
    })()}), 'is larger than the 10 MiB limit for a manifest'],
  ])('reports %s', async (_what, fetch, message) => {
    expect(await readError(['http://h/p'], {fetch})).toEqual([`http://h/p [0] ${message}`])
  })

  it('reports text that is not UTF-8', async () => {
    const io: ManifestIO = {stdin: async () => new Uint8Array([0xff, 0xfe, 0x00])}
    expect(await readError(['-'], io)).toEqual(['- [0] is not valid UTF-8 text'])
  })

  it('reports an unsupported URL scheme', async () => {
    expect(await readError(['ftp://h/p'], {})).toEqual(['ftp://h/p [0] "ftp://h/p": unsupported URL scheme "ftp", expected http or https'])
  })

  it('reads the real file system by default', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-node-read-'))
    try {
      await writeFile(join(dir, 'b.yaml'), 'b')
      await writeFile(join(dir, 'a.json'), 'a')
      await writeFile(join(dir, '.swp.yaml'), 'x')
      await mkdir(join(dir, 'nested.yaml'))
      const blobs = await readManifests([dir], diskIO)
      expect(blobs.map((b) => b.text)).toEqual(['a', 'b'])
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})

describe('parseLocation', () => {
  it.each([
    ['-', {kind: 'stdin', arg: '-'}],
    ['pods/', {kind: 'dir', path: 'pods/', arg: 'pods/'}],
    ['pod.yaml', {kind: 'file', path: 'pod.yaml', arg: 'pod.yaml'}],
    ['HTTPS://example.com/p', {kind: 'url', url: 'HTTPS://example.com/p', arg: 'HTTPS://example.com/p'}],
  ])('%s', (arg, loc) => {
    expect(parseLocation(arg)).toEqual(loc)
  })

  it('rejects an empty location', () => {
    expect(() => parseLocation(' ')).toThrow('a manifest location must not be empty')
  })
})
