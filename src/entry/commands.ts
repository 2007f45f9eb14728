// Every kube-node command by its oclif id, each loaded only when it runs. The bundled CLI
// (src/entry/main.ts) serves these from memory instead of letting oclif search dist/commands, so a
// start reads one file and initialises only the modules of the command it runs.
import type {Command} from '@oclif/core'

/** Loads one command class. */
export type CommandLoader = () => Promise<Command.Class>

const load =
  (module: Promise<{default: Command.Class}>): Promise<Command.Class> =>
    module.then((m) => m.default)

export const COMMANDS: Readonly<Record<string, CommandLoader>> = Object.freeze({
  'delete:pod': () => load(import('../commands/delete/pod.js')),
  'describe:pod': () => load(import('../commands/describe/pod.js')),
  down: () => load(import('../commands/down.js')),
  events: () => load(import('../commands/events.js')),
  exec: () => load(import('../commands/exec.js')),
  'get:pods': () => load(import('../commands/get/pods.js')),
  kubeconfig: () => load(import('../commands/kubeconfig.js')),
  logs: () => load(import('../commands/logs.js')),
  plan: () => load(import('../commands/plan.js')),
  run: () => load(import('../commands/run.js')),
  'top:pods': () => load(import('../commands/top/pods.js')),
  validate: () => load(import('../commands/validate.js')),
  version: () => load(import('../commands/version.js')),
  watch: () => load(import('../commands/watch.js')),
})
