// Another user of the same host: processes run as `nobody` (uid and gid 65534, no supplementary
// groups) through setpriv(1), for the tests of what an unprivileged local user can claim or read.
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'

export const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups']
export const isRoot = process.getuid?.() === 0

/** Runs a Node script as nobody to completion; its stdout, stderr and exit code. */
export function nodeAsNobody(script: string, env: Record<string, string> = {}): {code: number; stdout: string; stderr: string} {
  const r = spawnSync('setpriv', [...NOBODY, process.execPath, '-e', script], {encoding: 'utf8', env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env}, timeout: 30_000})
  return {code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr}
}

/** Starts a Node script as nobody that keeps running; resolves with it once it printed a line. */
export async function startAsNobody(script: string, env: Record<string, string> = {}): Promise<{child: ChildProcess; line: string; stop: () => Promise<void>}> {
  const child = spawn('setpriv', [...NOBODY, process.execPath, '-e', script], {env: {PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env}, stdio: ['ignore', 'pipe', 'pipe']})
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    let err = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
    })
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    child.once('exit', (code) => reject(new Error(`the script run as nobody exited ${code}: ${err}`)))
  })
  return {
    child,
    line,
    async stop() {
      child.kill('SIGKILL')
      await exited
    },
  }
}
