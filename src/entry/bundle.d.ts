// What scripts/bundle.mjs puts into the bundle at build time (an esbuild virtual module):
// package.json, the oclif manifest the build wrote, and the shell-completion commands of
// @oclif/plugin-autocomplete, whose package exports no path to them.
declare module 'kube-node:bundle' {
  import type {Interfaces} from '@oclif/core'
  import type {CommandLoader} from './commands.js'
  export const PJSON: Interfaces.PJSON
  export const MANIFEST: Interfaces.Manifest
  export const AUTOCOMPLETE: Readonly<Record<string, CommandLoader>>
}
