// Mounts through mount(8) and umount(8); the mount table from /proc/self/mountinfo.
import {readFile, realpath} from 'node:fs/promises'
import {promisify} from 'node:util'
import type {HostFs, MountPoint} from './port.js'

/**
 * Where mount(8) and umount(8) are looked up: the system's own directories, whatever PATH kube-node
 * was started with (the single executable may run with a PATH of its own directory only, and a
 * PATH a user controls must not choose what runs as root on a volume).
 */
const SYSTEM_PATH = '/usr/sbin:/usr/bin:/sbin:/bin'

/** Runs mount(8) or umount(8); child_process is loaded by the first mount, not by every start. */
async function run(file: string, args: string[]): Promise<void> {
  // The bundle turns this import() into a require() (scripts/bundle.mjs: dynamicBuiltins).
  const {execFile} = await import('node:child_process')
  await promisify(execFile)(file, args, {env: {...process.env, PATH: SYSTEM_PATH, LC_ALL: 'C'}})
}

// /proc/self/mountinfo escapes space, tab, newline and backslash as octal.
function unescapeMountPath(p: string): string {
  return p.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)))
}

/** mount(8) and umount(8), and the mount table of /proc/self/mountinfo. */
export const systemMounts: Pick<HostFs, 'mountTmpfs' | 'unmount' | 'mountsUnder'> = {
  async mountTmpfs(dir, sizeBytes, mode) {
    const options = [...(sizeBytes !== undefined && sizeBytes > 0 ? [`size=${sizeBytes}`] : []), ...(mode !== undefined ? [`mode=${mode.toString(8)}`] : [])]
    const opts = options.length > 0 ? ['-o', options.join(',')] : []
    await run('mount', ['-t', 'tmpfs', ...opts, 'tmpfs', dir])
  },
  async unmount(dir) {
    try {
      await run('umount', [dir])
    } catch {
      // Busy (a process still has it open): detach it now, the kernel frees it later.
      await run('umount', ['-l', dir])
    }
  },
  async mountsUnder(dir) {
    let real: string
    try {
      real = await realpath(dir)
    } catch {
      return []
    }
    const table = await readFile('/proc/self/mountinfo', 'utf8')
    const out: MountPoint[] = []
    for (const line of table.split('\n')) {
      const [left = '', right = ''] = line.split(' - ')
      const path = unescapeMountPath(left.split(' ')[4] ?? '')
      if (path === real || path.startsWith(real.endsWith('/') ? real : real + '/')) out.push({path, fsType: right.split(' ')[0] ?? ''})
    }
    return out.sort((a, b) => b.path.length - a.path.length)
  },
}
