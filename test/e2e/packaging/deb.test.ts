// The Debian package (scripts/deb.sh), on this machine for real: lintian, `apt-get install` of the
// .deb, the unit checked by systemd-analyze, the shipped configuration read by kube-node, the unit's
// own command line watching /etc/kubernetes/manifests, maintainer scripts that never start or
// restart the service, and a purge that leaves nothing of the package but the running pods.
// It never starts the unit, and touches no containerd but the e2e one. Needs root, the build and
// the e2e runtime.
import {existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ROOT, makeDirs} from '../support.js'
import {MANIFESTS, downAll, globals, helloRunning, must, packageBuilt, run, watchManifests, type Place} from './support.js'

const dirs = makeDirs()
const place: Place = {node: 'pkg-deb', rootDir: dirs.rootDir, logsDir: dirs.logsDir}
const apt = {env: {DEBIAN_FRONTEND: 'noninteractive'}}
const UNIT = '/lib/systemd/system/kube-node.service'
const hello = join(ROOT, 'manifests/hello.yaml')
const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
let deb = ''
/** Paths the package holds that did not exist before it was installed. */
let packagePaths: string[] = []

const installed = async (): Promise<boolean> => (await run('dpkg-query', ['-W', '-f=${Status}', 'kube-node'])).stdout.includes('ok installed')
const purge = () => must('apt-get', ['purge', '-y', 'kube-node'], apt)
/** The repository's own build: the pods outlive the package. */
const node = (args: string[]) => run(process.execPath, [join(ROOT, 'bin/run.js'), ...args, ...globals(place)])

beforeAll(async () => {
  // A run that failed half-way must not leave the package or our manifest behind.
  if (await installed()) await purge()
  if (existsSync(MANIFESTS) && readdirSync(MANIFESTS).length > 0) throw new Error(`${MANIFESTS} holds manifests of someone else; this test would run them`)
  await downAll(place)
  await packageBuilt('deb')
  const arch = (await must('dpkg', ['--print-architecture'])).stdout.trim()
  deb = join(ROOT, 'dist', `kube-node_${version}_${arch}.deb`)
  const listing = (await must('sh', ['-c', `dpkg-deb --fsys-tarfile '${deb}' | tar -t`])).stdout
  packagePaths = listing
    .split('\n')
    .map((p) => p.replace(/^\.\/?/, '/').replace(/(.)\/$/, '$1'))
    .filter((p) => p !== '/' && p !== '' && !existsSync(p))
  // The README's command.
  await must('apt-get', ['install', '-y', `./${deb.split('/').at(-1)}`], {...apt, cwd: join(ROOT, 'dist')})
}, 600_000)
afterAll(async () => {
  if (await installed()) await purge()
  await downAll(place)
  dirs.cleanup()
})

describe('the Debian package', () => {
  it('passes lintian without errors or warnings', async () => {
    const r = await run('lintian', ['--fail-on', 'error,warning', deb])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).not.toMatch(/^[EW]:/m)
  }, 300_000)

  it('installs the executable, the unit, the configuration and the manifest directory', async () => {
    const files = (await must('dpkg', ['-L', 'kube-node'])).stdout.split('\n')
    expect(files).toEqual(expect.arrayContaining(['/usr/bin/kube-node', UNIT, '/etc/kube-node/config.yaml', MANIFESTS, '/usr/share/man/man1/kube-node.1.gz']))
    const fields = (await must('dpkg-query', ['-W', '-f=${Depends}\n${Conffiles}\n', 'kube-node'])).stdout
    expect(fields).toMatch(/^containerd, /)
    expect(fields).toContain('/etc/kube-node/config.yaml')
    // The configuration may hold credentials (staticPodURLHeader): root's alone.
    const config = statSync('/etc/kube-node/config.yaml')
    expect({mode: (config.mode & 0o777).toString(8), uid: config.uid}).toEqual({mode: '600', uid: 0})
    const r = await run('/usr/bin/kube-node', ['version', '-o', 'json', ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({kubeNode: version, runtime: {runtimeName: 'containerd'}})
  })

  it('ships a unit that systemd-analyze verifies, passing the configuration', async () => {
    const r = await run('systemd-analyze', ['verify', UNIT])
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(readFileSync(UNIT, 'utf8')).toMatch(/^ExecStart=\/usr\/bin\/kube-node watch \/etc\/kubernetes\/manifests --config \/etc\/kube-node\/config\.yaml /m)
  })

  it('ships a configuration kube-node accepts, documenting only fields it reads', async () => {
    const shipped = await run('/usr/bin/kube-node', ['plan', '-f', hello, '--config', '/etc/kube-node/config.yaml', ...globals(place)])
    expect([shipped.code, shipped.stderr]).toEqual([0, ''])
    // Every commented field switched on: none is unknown to kube-node, and every value is valid.
    const all = join(dirs.work, 'config-all.yaml')
    writeFileSync(all, readFileSync('/etc/kube-node/config.yaml', 'utf8').replace(/^#(?=[a-zA-Z]|  )/gm, ''), {mode: 0o600})
    const every = await run('/usr/bin/kube-node', ['validate', '-f', hello, '--config', all])
    expect([every.code, every.stderr]).toEqual([0, ''])
  })

  it("runs the unit's command line: the pods of /etc/kubernetes/manifests come up", async () => {
    const execStart = readFileSync(UNIT, 'utf8').match(/^ExecStart=(.*)$/m)![1]!
    await watchManifests(execStart.split(' '), place)
  })

  it('has maintainer scripts that never start or restart kube-node, even under systemd', async () => {
    const control = join(dirs.work, 'control')
    await must('dpkg-deb', ['--control', deb, control])
    // Stand-ins that log their calls; deb-systemd-helper answers yes (installed, enabled).
    const shims = join(dirs.work, 'shims')
    const calls = join(dirs.work, 'calls.log')
    mkdirSync(shims, {recursive: true})
    for (const tool of ['systemctl', 'deb-systemd-invoke', 'deb-systemd-helper']) {
      writeFileSync(join(shims, tool), `#!/bin/sh\necho "${tool} $*" >>'${calls}'\n`, {mode: 0o755})
    }
    // dpkg's calls for an install, an upgrade, a removal and a purge, with systemd seemingly
    // running: /run/systemd/system exists in a mount namespace of their own.
    const steps: Record<string, string[][]> = {
      install: [['postinst', 'configure']],
      upgrade: [['prerm', 'upgrade', version], ['postinst', 'configure', version]],
      remove: [['prerm', 'remove'], ['postrm', 'remove']],
      purge: [['postrm', 'purge']],
    }
    const logs: Record<string, string> = {}
    for (const [step, scripts] of Object.entries(steps)) {
      rmSync(calls, {force: true})
      const body = scripts.map(([script, ...args]) => `'${join(control, script!)}' ${args.join(' ')}`).join(' && ')
      await must('unshare', ['--mount', 'sh', '-c', `mount -t tmpfs kube-node-test /run && mkdir -p /run/systemd/system && ${body}`], {
        env: {PATH: `${shims}:/usr/sbin:/usr/bin:/sbin:/bin`},
      })
      logs[step] = existsSync(calls) ? readFileSync(calls, 'utf8') : ''
    }
    for (const step of ['install', 'upgrade']) {
      expect(logs[step], step).not.toContain('deb-systemd-invoke')
      expect(logs[step]!.split('\n').filter((l) => l.startsWith('systemctl')), step).toEqual(['systemctl --system daemon-reload'])
    }
    expect(Object.values(logs).join('')).not.toMatch(/\b(start|restart|try-restart|reload-or-restart)\b/)
    expect(logs['remove']).toContain('deb-systemd-invoke stop kube-node.service')
  })

  it('purges to nothing, enabled or not, and the pods keep running', async () => {
    // A pod from the installed executable; its container must outlive the package.
    const r = await run('/usr/bin/kube-node', ['run', '-f', hello, ...globals(place)])
    expect(r.code, r.stderr).toBe(0)
    const containerId = async () => ((JSON.parse((await node(['get', 'pods', '-o', 'json'])).stdout) as {items: {status: {containerStatuses?: {containerID?: string}[]}}[]}).items[0]?.status.containerStatuses?.[0]?.containerID)
    const before = await containerId()
    expect(before).toBeTruthy()
    // Enabled as the README says (without --now: no systemd runs here).
    await must('systemctl', ['enable', 'kube-node'])
    await purge()
    expect(await installed()).toBe(false)
    const left = packagePaths.filter((p) => existsSync(p))
    expect(left).toEqual([])
    expect(existsSync('/etc/systemd/system/multi-user.target.wants/kube-node.service')).toBe(false)
    const helperState = '/var/lib/systemd/deb-systemd-helper-enabled'
    expect(existsSync(helperState) ? readdirSync(helperState).filter((f) => f.includes('kube-node')) : []).toEqual([])
    expect(readdirSync('/var/lib/dpkg/info').filter((f) => f.startsWith('kube-node.'))).toEqual([])
    expect((await node(['get', 'pods'])).stdout).toMatch(helloRunning(place))
    expect(await containerId()).toBe(before)
  })
})
