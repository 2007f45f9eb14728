// The real kubectl for end-to-end tests: run with a test's own kubeconfig and HOME (so no user
// configuration leaks in), and a free loopback port for the `watch` it talks to.
import {execFile} from 'node:child_process'
import {createServer} from 'node:net'

export const KUBECTL = process.env['KUBECTL'] ?? 'kubectl'

export interface KubectlResult {
  code: number
  stdout: string
  stderr: string
}

/** A kubectl runner bound to one kubeconfig; every call has a 20 s request timeout. */
export function kubectlWith(kubeconfig: string, home: string): (...args: string[]) => Promise<KubectlResult> {
  const env = {...process.env, KUBECONFIG: kubeconfig, HOME: home}
  return (...args) =>
    new Promise((resolve) => {
      execFile(KUBECTL, ['--request-timeout', '20s', ...args], {env}, (err, stdout, stderr) => resolve({code: err ? ((err as {code?: number}).code ?? 1) : 0, stdout, stderr}))
    })
}

/** A loopback port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const {port} = s.address() as {port: number}
      s.close(() => resolve(port))
    })
  })
}
