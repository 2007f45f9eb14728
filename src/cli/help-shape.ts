// The shape of kube-node's help pages: oclif lists every global flag in each command's USAGE and
// in a GLOBAL FLAGS section of about 30 lines (`--cluster-dns` on `logs`). A command's page keeps
// its own flags and names the global ones in one line; the root page lists them in full once. Pure.

const GLOBAL_SECTION = /\nGLOBAL FLAGS\n[\s\S]*?(?=\n\n[A-Z]|\n*$)/
const GLOBAL_LINE = '\nGLOBAL FLAGS\n  --root-dir, --runtime-endpoint, --node-name, -v, ...: see kube-node --help'

/** The GLOBAL FLAGS section of a rendered command page (with its leading newline), or ''. */
export function globalSection(page: string): string {
  return GLOBAL_SECTION.exec(page)?.[0] ?? ''
}

/** The USAGE words without the global flags, rewrapped at `width` columns. */
function shortUsage(page: string, globals: ReadonlySet<string>, width: number): string {
  return page.replace(/(^|\n)USAGE\n([\s\S]*?)\n\n/, (_, start: string, body: string) => {
    const words = body.replace(/\s+/g, ' ').trim()
    const kept = words.replace(/ \[(-[-\w]+)(?: [^\]]*)?\]/g, (m, name: string) => (globals.has(name) ? '' : m))
    const lines: string[] = []
    let line = ' '
    for (const w of [...(kept.match(/\[[^\]]*\]|\S+/g) ?? []), '[global flags]']) {
      if (line.length + w.length + 1 > width && line.trim()) {
        lines.push(line)
        line = '   '
      }
      line += ` ${w}`
    }
    lines.push(line)
    return `${start}USAGE\n${lines.join('\n')}\n\n`
  })
}

/** A command's page with the global flags in one line; `globals` holds their `--name` and `-c` spellings. */
export function shapeCommandHelp(page: string, globals: ReadonlySet<string>, width = 80): string {
  if (!GLOBAL_SECTION.test(page)) return page
  return shortUsage(page.replace(GLOBAL_SECTION, GLOBAL_LINE), globals, width)
}
