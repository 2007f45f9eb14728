// Every input that becomes a path stays inside its root: a manifest's uid and names, the node
// name, a runtime label (anyone with access to the runtime can write one), a subPath or an
// expanded subPathExpr, a symlink planted inside a volume, a projected volume's own links.
import {existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {joinInside, PathEscapeError} from '../../src/util/contained-path.js'
import {podDataDir, podLogDirectory} from '../../src/kuberuntime/naming.js'
import {resolveInside} from '../../src/host/subpath.js'
import {mountSubPath} from '../../src/kuberuntime/container-config.js'
import {terminatePod} from '../../src/apply/terminate.js'
import {writeAtomicDir} from '../../src/host/atomic-dir.js'
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {silentLogger} from '../../src/util/logger.js'
import {FakeRuntime} from '../support/fake-runtime.js'
import {kn, makeDirs, ROOT} from '../e2e/support.js'
import {spawnSync} from 'node:child_process'

const work = mkdtempSync(join(tmpdir(), 'kn-escape-'))
afterAll(() => rmSync(work, {recursive: true, force: true}))

describe('path builders refuse anything but one plain segment', () => {
  it.each(['..', '.', '', '../../etc', 'a/b', 'x\0y', 'a'.repeat(300)])('uid %j', (uid) => {
    expect(() => podDataDir('/var/lib/kube-node', uid)).toThrow(PathEscapeError)
  })
  it.each([['a/..', 'web', 'u'], ['default', '../..', 'u'], ['default', 'web', '../x']])('log dir of %j/%j/%j', (ns, name, uid) => {
    expect(() => podLogDirectory('/var/log/pods', ns, name, uid)).toThrow(PathEscapeError)
  })
  it('joinInside keeps ordinary names', () => {
    expect(joinInside('/r', 'f', 'pods', 'abc-123')).toBe('/r/pods/abc-123')
  })
})

describe('a runtime label naming a path outside the roots removes nothing', () => {
  it.each(['../../outside', '..', ''])('uid label %j', async (uid) => {
    const root = join(work, `root-${Math.random().toString(36).slice(2)}`)
    const logs = join(work, `logs-${Math.random().toString(36).slice(2)}`)
    mkdirSync(root, {recursive: true})
    mkdirSync(logs, {recursive: true})
    const sentinel = join(work, 'outside')
    mkdirSync(sentinel, {recursive: true})
    writeFileSync(join(sentinel, 'keep'), 'x')
    const runtime = new FakeRuntime()
    await terminatePod({runtime, fs: nodeHostFs, logger: silentLogger, rootDir: root, podLogsDir: logs}, {uid, name: 'evil-node', namespace: 'default', manifestName: 'evil', sandboxes: [], containers: []}, undefined)
    expect(readFileSync(join(sentinel, 'keep'), 'utf8')).toBe('x')
    expect(existsSync(root)).toBe(true)
    expect(existsSync(logs)).toBe(true)
  })
})

describe('subPath is resolved without leaving the volume', () => {
  const vol = join(work, 'vol')
  const outside = join(work, 'host-secret')
  mkdirSync(join(vol, 'inner'), {recursive: true})
  mkdirSync(outside, {recursive: true})
  writeFileSync(join(outside, 'shadow'), 'secret')
  symlinkSync(outside, join(vol, 'evil'))
  symlinkSync('/etc', join(vol, 'etc'))
  symlinkSync('inner', join(vol, 'good-link'))

  it.each(['evil', 'evil/shadow', 'etc', 'etc/passwd', 'inner/../evil'])('%j is refused', async (sub) => {
    await expect(resolveInside(vol, sub, 'volumeMounts[0].subPath')).rejects.toThrow(/volumeMounts\[0\]\.subPath/)
  })

  it('a link that stays inside the volume is followed to its real place', async () => {
    expect(await resolveInside(vol, 'good-link', 'f')).toBe(join(vol, 'inner'))
  })

  it('missing directories are created inside the volume', async () => {
    expect(await resolveInside(vol, 'new/deeper', 'f')).toBe(join(vol, 'new/deeper'))
    expect(existsSync(join(vol, 'new/deeper'))).toBe(true)
  })

  it('a link to outside planted where a missing directory would go is never followed', async () => {
    symlinkSync(outside, join(vol, 'planted'))
    await expect(resolveInside(vol, 'planted/created', 'f')).rejects.toThrow(PathEscapeError)
    expect(existsSync(join(outside, 'created'))).toBe(false)
  })

  it('subPathExpr expands the container environment and is checked the same way', () => {
    const vars = new Map([['POD', 'web'], ['UP', '..']])
    expect(mountSubPath({name: 'v', mountPath: '/m', subPathExpr: 'logs/$(POD)'}, vars, 'f')).toBe('logs/web')
    expect(() => mountSubPath({name: 'v', mountPath: '/m', subPathExpr: '$(UP)/etc'}, vars, 'f')).toThrow(/subPathExpr "..\/etc"/)
  })
})

describe('projected volume writes never follow links they did not make', () => {
  it('a ..data link and key links planted to point outside leave the outside untouched', async () => {
    const dir = join(work, 'projected')
    const outside = join(work, 'projected-outside')
    mkdirSync(dir, {recursive: true})
    mkdirSync(outside, {recursive: true})
    writeFileSync(join(outside, 'app.conf'), 'precious')
    symlinkSync(outside, join(dir, '..data'))
    symlinkSync(join(outside, 'app.conf'), join(dir, 'app.conf'))
    await writeAtomicDir(dir, [{path: 'app.conf', data: Buffer.from('new'), mode: 0o644}])
    expect(readFileSync(join(outside, 'app.conf'), 'utf8')).toBe('precious')
    expect(readlinkSync(join(dir, '..data'))).toMatch(/^\.\.payload-/)
    expect(readFileSync(join(dir, 'app.conf'), 'utf8')).toBe('new')
  })
})

describe('through the CLI', () => {
  const dirs = makeDirs()
  afterAll(() => dirs.cleanup())

  it.each([['../../x'], ['a/b'], ['..']])('a manifest uid %j is exit 2 naming metadata.uid, and nothing is created', async (uid) => {
    const file = join(dirs.work, 'uid.yaml')
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: ${JSON.stringify(uid)}}\nspec: {containers: [{name: c, image: busybox}]}\n`)
    const r = await kn(dirs, ['run', '-f', file, '--timeout', '5s'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/metadata\.uid/)
    expect(existsSync(dirs.rootDir)).toBe(false)
  })

  it.each(['../x', 'a/b', 'UPPER_and_bad!'])('--node-name %j is exit 2', async (node) => {
    const file = join(dirs.work, 'ok.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: busybox}]}\n')
    // Not through kn(): it adds its own --node-name.
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), 'validate', '-f', file, '--node-name', node, '--root-dir', dirs.rootDir], {encoding: 'utf8'})
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/error: --node-name/)
  })
})
