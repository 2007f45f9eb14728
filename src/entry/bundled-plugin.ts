// The root oclif plugin of the bundled CLI. oclif's own Plugin reads package.json, the manifest
// and every command file from disk; in the bundle all three are already in memory (and in a
// single executable there is no disk to read them from), so this one takes them as values.
import {Plugin, type Command, type Interfaces} from '@oclif/core'
import type {CommandLoader} from './commands.js'

export interface BundleContents {
  /** Where kube-node is installed: oclif's `config.root`. Nothing is read from it. */
  readonly root: string
  readonly pjson: Interfaces.PJSON
  /** oclif.manifest.json as the build wrote it: every command's flags, args and help. */
  readonly manifest: Interfaces.Manifest
  /** Each command's class, loaded when the command runs. */
  readonly commands: Readonly<Record<string, CommandLoader>>
}

export class BundledPlugin extends Plugin {
  readonly #bundle: BundleContents

  constructor(bundle: BundleContents) {
    super({root: bundle.root, isRoot: true, pjson: bundle.pjson})
    this.#bundle = bundle
  }

  /** What Plugin.load() sets, from the bundle instead of the file system. */
  override async load(): Promise<void> {
    const {root, pjson, manifest} = this.#bundle
    this.type = 'core'
    this.isRoot = true
    this.root = root
    this.pjson = pjson
    this.name = pjson.name
    this.alias = pjson.name
    this.version = pjson.version
    this.valid = true
    this.moduleType = 'commonjs'
    this.hooks = {}
    this.hasManifest = true
    this.manifest = manifest
    this.commandIDs = Object.keys(manifest.commands)
    this.commands = Object.entries(manifest.commands)
      .map(([id, cached]) => ({...cached, load: async () => this.findCommand(id, {must: true}), pluginAlias: this.name, pluginType: this.type}))
      // Code-unit order: localeCompare would load ICU's collator, a tenth of a start.
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }

  override async findCommand(id: string, opts: {must: true}): Promise<Command.Class>
  override async findCommand(id: string, opts?: {must: boolean}): Promise<Command.Class | undefined>
  override async findCommand(id: string, opts?: {must: boolean}): Promise<Command.Class | undefined> {
    const loader = Object.hasOwn(this.#bundle.commands, id) ? this.#bundle.commands[id] : undefined
    const command = loader ? await loader() : undefined
    if (!command) {
      if (opts?.must) throw new Error(`command ${id} not found`)
      return undefined
    }
    command.id = id
    command.plugin = this
    return command
  }
}
