// Stand-in for `wsl-utils` in the bundle (scripts/bundle.mjs). oclif's Config.load imports it at
// every start to ask whether it runs under WSL (getPlatform), and the package promisifies
// child_process.execFile at import, which loads node:child_process (and with it dgram) for
// nothing: oclif reads only `isWsl` and, when it looks for the shell on Windows, `powerShellPath`.
// `isWsl` is the same value (the package re-exports is-wsl); `powerShellPath` loads the real
// package on its first call, by file so that this stand-in does not stand in for itself.
export {default as isWsl} from 'is-wsl'

export async function powerShellPath() {
  const real = await import('../../node_modules/wsl-utils/index.js')
  return real.powerShellPath()
}
