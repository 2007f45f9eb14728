// A `kube-node watch` of the adversarial suite: its own node name (so it never touches the pods
// of other tests), its own dirs and a free loopback port.
import {spawn} from 'node:child_process'
import {createServer} from 'node:net'
import {knArgs} from '../../e2e/support.js'

export async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()))
  const port = (srv.address() as {port: number}).port
  await new Promise<void>((r) => srv.close(() => r()))
  return port
}

/** The global flags of knArgs with another node name. */
export function argsAs(node: string, dirs: {rootDir: string; logsDir: string}, args: string[]): string[] {
  const all = knArgs(dirs, args)
  all[all.indexOf('--node-name') + 1] = node
  return all
}

export interface Watch {
  port: number
  pid: number
  stderr: () => string
  exited: () => boolean
  stop(): Promise<void>
}

/** `extra`: more flags for watch (e.g. --config); the /healthz-only listener is off unless it sets --healthz-port. */
export async function startWatchAs(node: string, dirs: {rootDir: string; logsDir: string}, dir: string, extra: string[] = []): Promise<Watch> {
  const port = await freePort()
  const child = spawn(process.execPath, argsAs(node, dirs, ['watch', dir, '--port', String(port), ...(extra.includes('--healthz-port') ? [] : ['--healthz-port', '0']), '--file-check-frequency', '1s', ...extra]), {
    env: {...process.env, NO_COLOR: '1'},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  let done = false
  const exited = new Promise<void>((r) => child.on('exit', () => ((done = true), r())))
  return {
    port,
    pid: child.pid ?? 0,
    stderr: () => err,
    exited: () => done,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
