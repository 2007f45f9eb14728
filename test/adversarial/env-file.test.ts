// fileKeyRef reads, as root, a file a container wrote into an emptyDir. Everything below the
// volume's directory is the container's: it may plant a link to a host secret, link a parent
// directory out of the volume, leave a FIFO, a device node or a file of gigabytes, or name a
// path with '..'. None of these may read a byte outside the volume, block, or fill the memory.
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeEach, describe, expect, it} from 'vitest'
import type {EnvVar} from '../../src/api/types.js'
import {readEnvFiles} from '../../src/apply/env-files.js'
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {readFileInside} from '../../src/host/read-inside.js'
import {buildEnv} from '../../src/kuberuntime/env.js'
import {ENV_FILE_MAX_BYTES} from '../../src/kuberuntime/env-file.js'
import {ConfigError} from '../../src/kuberuntime/errors.js'
import {emptyDirPath} from '../../src/kuberuntime/naming.js'
import {makeContainer, makeStaticPod, UID} from '../support/pods.js'

const work = mkdtempSync(join(tmpdir(), 'kn-envfile-'))
afterAll(() => rmSync(work, {recursive: true, force: true}))

const SECRET = 'root:$6$not-for-containers:19000:0:99999:7:::'
const outside = join(work, 'outside')
mkdirSync(outside, {recursive: true})
writeFileSync(join(outside, 'shadow'), `KEY=${SECRET}\n`)

let root = ''
let vol = ''
beforeEach(() => {
  root = mkdtempSync(join(work, 'root-'))
  vol = emptyDirPath(root, UID, 'config')
  mkdirSync(vol, {recursive: true})
})

const read = (path: string) => readFileInside(vol, path, ENV_FILE_MAX_BYTES, 'fileKeyRef.path')

function env(path: string, optional = false): Promise<{key: string; value: string}[]> {
  const e: EnvVar = {name: 'V', valueFrom: {fileKeyRef: {volumeName: 'config', path, key: 'KEY', optional}}}
  const container = makeContainer({env: [e]})
  const sp = makeStaticPod((p) => {
    p.spec.volumes = [{name: 'config', emptyDir: {}}]
    p.spec.containers = [container]
  })
  return readEnvFiles(nodeHostFs, root, sp.pod, container).then((files) => buildEnv(sp.pod, container, {podIP: '', envFiles: files}))
}

describe('the ordinary case', () => {
  it('reads a file and a file in a subdirectory', async () => {
    writeFileSync(join(vol, 'config.env'), 'KEY=value\n')
    mkdirSync(join(vol, 'sub'))
    writeFileSync(join(vol, 'sub', 'app.env'), 'KEY=nested\n')
    expect(await env('config.env')).toEqual([{key: 'V', value: 'value'}])
    expect(await env('./sub//app.env')).toEqual([{key: 'V', value: 'nested'}])
  })

  it('a missing file or directory is missing, not an error', async () => {
    expect(await read('absent.env')).toBeUndefined()
    expect(await read('no/such/dir.env')).toBeUndefined()
    expect(await readFileInside(join(work, 'no-volume'), 'x.env', 10, 'f')).toBeUndefined()
    expect(await env('absent.env', true)).toEqual([])
  })
})

describe('links are never followed', () => {
  it('a file linked to a host secret', async () => {
    symlinkSync(join(outside, 'shadow'), join(vol, 'config.env'))
    await expect(read('config.env')).rejects.toThrow(/symbolic link/)
    const err = await env('config.env', true).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect(String(err)).toMatch(/couldn't read env file for fileKeyRef "config.env" in volume "config": fileKeyRef.path: .*symbolic link/)
    expect(String(err)).not.toContain(SECRET)
  })

  it('a relative link that points back inside the volume is refused as well', async () => {
    writeFileSync(join(vol, 'real.env'), 'KEY=v\n')
    symlinkSync('real.env', join(vol, 'config.env'))
    await expect(read('config.env')).rejects.toThrow(/symbolic link/)
  })

  it('a parent directory linked out of the volume', async () => {
    symlinkSync(outside, join(vol, 'sub'))
    await expect(read('sub/shadow')).rejects.toThrow(/symbolic link|not a directory/)
    await expect(env('sub/shadow')).rejects.toThrow(ConfigError)
  })

  it('a deeper parent linked to /', async () => {
    mkdirSync(join(vol, 'a'))
    symlinkSync('/', join(vol, 'a', 'b'))
    await expect(read('a/b/etc/shadow')).rejects.toThrow(/symbolic link|not a directory/)
  })

  it('a dangling link', async () => {
    symlinkSync(join(work, 'nowhere'), join(vol, 'config.env'))
    await expect(read('config.env')).rejects.toThrow(/symbolic link/)
  })

  it('the volume directory itself replaced by a link', async () => {
    rmSync(vol, {recursive: true})
    symlinkSync(outside, vol)
    await expect(read('shadow')).rejects.toThrow(/symbolic link|not a directory/)
  })
})

describe('paths that leave the volume by name', () => {
  it.each(['../../../../../../etc/shadow', 'sub/../../x', '/etc/shadow', '..', 'a\0b'])('%j', async (path) => {
    await expect(read(path)).rejects.toThrow(/fileKeyRef.path/)
  })
})

describe('not a regular file', () => {
  it('a FIFO is refused at once, never waited on', async () => {
    expect(spawnSync('mkfifo', [join(vol, 'config.env')]).status).toBe(0)
    const started = Date.now()
    await expect(read('config.env')).rejects.toThrow(/is not a regular file/)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('a device node is refused', async () => {
    // As a privileged container could create (mknod); /dev/null's numbers, harmless to open.
    const made = spawnSync('mknod', [join(vol, 'config.env'), 'c', '1', '3'])
    if (made.status !== 0) return // not root: nothing to test
    await expect(read('config.env')).rejects.toThrow(/is not a regular file/)
  })

  it('a directory is refused', async () => {
    mkdirSync(join(vol, 'config.env'))
    await expect(read('config.env')).rejects.toThrow(/is not a regular file/)
  })

  it('a regular file used as a directory', async () => {
    writeFileSync(join(vol, 'file'), 'KEY=v\n')
    await expect(read('file/config.env')).rejects.toThrow(/not a directory/)
  })
})

describe('size', () => {
  it('a file of exactly the limit is read', async () => {
    writeFileSync(join(vol, 'config.env'), `KEY=${'x'.repeat(ENV_FILE_MAX_BYTES - 5)}\n`)
    const [v] = await env('config.env')
    expect(v?.value.length).toBe(ENV_FILE_MAX_BYTES - 5)
  })

  it('one byte more is refused', async () => {
    writeFileSync(join(vol, 'config.env'), `KEY=${'x'.repeat(ENV_FILE_MAX_BYTES - 4)}\n`)
    await expect(read('config.env')).rejects.toThrow(/larger than 65536 bytes/)
    await expect(env('config.env', true)).rejects.toThrow(ConfigError)
  })

  it('a sparse file of 10 GB is refused without reading it', async () => {
    expect(spawnSync('truncate', ['-s', '10G', join(vol, 'config.env')]).status).toBe(0)
    const before = process.memoryUsage().rss
    await expect(read('config.env')).rejects.toThrow(/larger than/)
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024)
  })
})

describe('the volume must be an emptyDir of the pod', () => {
  it('a hostPath volume is refused at run time too (validation refuses it first)', async () => {
    const e: EnvVar = {name: 'V', valueFrom: {fileKeyRef: {volumeName: 'host', path: 'shadow', key: 'KEY'}}}
    const container = makeContainer({env: [e]})
    const sp = makeStaticPod((p) => {
      p.spec.volumes = [{name: 'host', hostPath: {path: outside}}]
      p.spec.containers = [container]
    })
    await expect(readEnvFiles(nodeHostFs, root, sp.pod, container)).rejects.toThrow('fileKeyRef "shadow" in volume "host": the volume must be an emptyDir')
  })
})
