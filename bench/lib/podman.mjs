// Podman as the peer of kube-node in bench/peer.mjs: installed from Debian when missing, run with a
// private store (root, runroot, tmpdir, network config) so that nothing of the benchmark mixes
// with other podman state and everything is removed at the end.
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {mkdir, rm, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {log, tail, timeProcess} from './harness.mjs'

const NETAVARK = ['/usr/lib/podman/netavark', '/usr/libexec/podman/netavark']

function onPath(bin) {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

/**
 * Installs podman and netavark from Debian when either is missing (untimed, before anything is
 * measured). Never starts a service: the packages ship only systemd units, which nothing enables
 * here. Throws when they are missing and cannot be installed.
 */
export function ensurePodman({install = true} = {}) {
  const missing = []
  if (!onPath('podman')) missing.push('podman')
  if (!NETAVARK.some((p) => existsSync(p))) missing.push('netavark')
  if (!missing.length) return []
  if (!install) throw new Error(`${missing.join(' and ')} missing (and --no-install given): apt-get install -y --no-install-recommends podman netavark`)
  if (process.getuid?.() !== 0) throw new Error(`${missing.join(' and ')} missing; installing needs root: apt-get install -y --no-install-recommends podman netavark`)
  log(`installing ${missing.join(' ')} from Debian (apt-get install --no-install-recommends)`)
  const env = {...process.env, DEBIAN_FRONTEND: 'noninteractive'}
  const apt = (args) => execFileSync('apt-get', args, {stdio: ['ignore', 2, 2], env})
  try {
    apt(['install', '-y', '-qq', '--no-install-recommends', 'podman', 'netavark'])
  } catch {
    // Package lists may be missing or stale (a fresh container): refresh once and retry.
    apt(['update', '-qq'])
    apt(['install', '-y', '-qq', '--no-install-recommends', 'podman', 'netavark'])
  }
  return missing
}

/** This process's hard limit for a resource, from /proc/self/limits (Infinity when unlimited). */
function hardLimit(name) {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith(name))
  const hard = line?.slice(name.length).trim().split(/\s+/)[1]
  return hard === undefined || hard === 'unlimited' ? Infinity : Number(hard)
}

/**
 * Podman with a private store under `dir`. `infraImage` is the pod's infra (pause) image: the same
 * one containerd's sandboxes use, so that both runtimes start the same two images per pod (and
 * podman does not need catatonit to build its own).
 */
export async function openPodman(dir, {infraImage}) {
  // Two things podman keeps outside any store it is given: netavark's IP allocations
  // (/run/containers/networks) and the image library's blob-info cache (/var/lib/containers/cache).
  // When the benchmark is the one that makes them, it removes them again at the end.
  const shared = [
    {path: '/run/containers', only: 'networks'},
    {path: '/var/lib/containers', only: 'cache'},
  ].filter((d) => !existsSync(d.path))
  for (const d of ['storage', 'run', 'tmp', 'networks']) await mkdir(join(dir, d), {recursive: true})
  // Rootful podman sets RLIMIT_NOFILE and RLIMIT_NPROC to 1048576 in every container, which runc
  // cannot do without CAP_SYS_RESOURCE (a container sandbox, like this machine's, drops it): clamp
  // them to what this process may set (conmon, runc's parent, runs with RLIMIT_NPROC = pid_max).
  // The limits cost nothing at start; containerd leaves them as they are.
  const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) || Infinity
  const nofile = Math.min(1048576, hardLimit('Max open files'))
  const nproc = Math.min(1048576, hardLimit('Max processes'), pidMax)
  const conf = join(dir, 'containers.conf')
  await writeFile(conf, `[containers]\ndefault_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]\n\n[engine]\ninfra_image = "${infraImage}"\n`)
  const env = {...process.env, CONTAINERS_CONF: conf}
  const global = ['--root', join(dir, 'storage'), '--runroot', join(dir, 'run'), '--tmpdir', join(dir, 'tmp'), '--network-config-dir', join(dir, 'networks')]

  /** Runs podman with the private store; `check` throws on a non-zero exit. */
  async function podman(args, {check = true} = {}) {
    const res = await timeProcess('podman', [...global, ...args], {stdout: true, env})
    if (check && res.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${res.code}: ${tail(res.stderr)}`)
    return res
  }
  const lines = (s) => s.split('\n').filter(Boolean)

  const version = (await podman(['version', '--format', '{{.Client.Version}}'])).stdout.trim()

  /** Pulls into the private store (untimed); the registry is plain http. */
  async function pull(image) {
    await podman(['pull', '--tls-verify=false', '-q', image])
  }

  /** `podman kube play FILE`, start to exit; then, untimed, every one of the file's `n` pods must be running. */
  async function play(file, n) {
    const res = await podman(['kube', 'play', file], {check: false})
    if (res.code !== 0) throw new Error(`podman kube play exited ${res.code}: ${tail(res.stderr)}`)
    const status = lines((await podman(['pod', 'ps', '--format', '{{.Status}}'])).stdout)
    const running = status.filter((s) => s === 'Running').length
    if (running !== n) throw new Error(`podman kube play: ${running}/${n} pods running (${[...new Set(status)].join(', ')})`)
    return {secs: res.secs}
  }

  /** `podman kube down FILE`, timed for information (the benchmark's cleanup). */
  async function down(file) {
    const res = await podman(['kube', 'down', file], {check: false})
    if (res.code !== 0) log(`warning: podman kube down exited ${res.code}: ${tail(res.stderr)}`)
    return {secs: res.secs}
  }

  /**
   * Nothing may carry over from one measurement to the next: returns how many pods and containers
   * remained (0 after a clean `kube down`) and removes them.
   */
  async function clear() {
    const pods = lines((await podman(['pod', 'ps', '-q'], {check: false})).stdout)
    const ctrs = lines((await podman(['ps', '-aq'], {check: false})).stdout)
    if (pods.length) await podman(['pod', 'rm', '-f', '-a', '-t', '0'], {check: false})
    if (ctrs.length) await podman(['rm', '-f', '-a', '-t', '0'], {check: false})
    return pods.length + ctrs.length
  }

  /** Mount points under dir, deepest first. */
  function mountsUnder() {
    const out = []
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const target = line.split(' ')[4]?.replace(/\\040/g, ' ')
      if (target && (target === dir || target.startsWith(dir + '/'))) out.push(target)
    }
    return out.sort((a, b) => b.length - a.length)
  }

  /** Removes every pod, container and image of the private store, then the store itself. */
  async function close() {
    const left = await clear().catch(() => 0)
    await podman(['rmi', '-a', '-f'], {check: false}).catch(() => {})
    for (const m of mountsUnder()) {
      try {
        execFileSync('umount', [m], {stdio: 'ignore'})
      } catch {
        try {
          execFileSync('umount', ['-l', m], {stdio: 'ignore'})
        } catch {
          // reported below
        }
      }
    }
    if (mountsUnder().length) log(`warning: mounts remain under ${dir}; not removing it`)
    else await rm(dir, {recursive: true, force: true})
    for (const d of shared) {
      if (existsSync(d.path) && readdirSync(d.path).every((e) => e === d.only)) await rm(d.path, {recursive: true, force: true})
    }
    return left
  }

  return {version, pull, play, down, clear, close}
}
