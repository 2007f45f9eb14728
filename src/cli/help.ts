// oclif's help with kube-node's shape (help-shape.ts): used for `--help` and `help COMMAND` alike,
// so the pages the build renders ahead (scripts/help-text.mjs) are this class's output too.
import {Help, type Command} from '@oclif/core'
import {globalSection, shapeCommandHelp} from './help-shape.js'

export class KubeNodeHelp extends Help {
  #globals(): Set<string> {
    const names = new Set<string>()
    for (const c of this.config.commands) {
      for (const [name, f] of Object.entries(c.flags)) {
        if (f.helpGroup !== 'GLOBAL') continue
        names.add(`--${name}`)
        if (f.char) names.add(`-${f.char}`)
      }
    }
    return names
  }

  override formatCommand(command: Command.Loadable): string {
    return shapeCommandHelp(super.formatCommand(command), this.#globals())
  }

  override async showRootHelp(): Promise<void> {
    await super.showRootHelp()
    // Every command has the global flags: each one's page has the full section.
    const any = this.config.commands.find((c) => Object.values(c.flags).some((f) => f.helpGroup === 'GLOBAL'))
    const section = any ? globalSection(super.formatCommand(any)) : ''
    if (section) this.log(section.replace(/^\n/, '') + '\n')
  }
}
