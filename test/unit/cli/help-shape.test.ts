// A command's help keeps its own flags and names the global ones in one line.
import {describe, expect, it} from 'vitest'
import {globalSection, shapeCommandHelp} from '../../../src/cli/help-shape.js'

const page = `USAGE
  $ kube-node logs [POD] [--runtime-endpoint <value>] [--root-dir <value>]
    [-v <value>] [--log-format text|json] [-c <value>] [-f]

FLAGS
  -c, --container=<value>  Container name.
  -f, --follow             Keep printing.

GLOBAL FLAGS
  -v, --verbosity=<value>         Log verbosity.
      --log-format=<option>       Log format.
      --root-dir=<value>          Root.
      --runtime-endpoint=<value>  Endpoint.

EXAMPLES
  $ kube-node logs web
`
const globals = new Set(['--runtime-endpoint', '--root-dir', '-v', '--verbosity', '--log-format'])

describe('command help', () => {
  it('lists the own flags, the global ones in one line, and a USAGE without them', () => {
    expect(shapeCommandHelp(page, globals)).toBe(`USAGE
  $ kube-node logs [POD] [-c <value>] [-f] [global flags]

FLAGS
  -c, --container=<value>  Container name.
  -f, --follow             Keep printing.

GLOBAL FLAGS
  --root-dir, --runtime-endpoint, --node-name, -v, ...: see kube-node --help

EXAMPLES
  $ kube-node logs web
`)
  })

  it('the root page gets the full section', () => {
    expect(globalSection(page)).toMatch(/^\nGLOBAL FLAGS\n {2}-v, --verbosity[\s\S]*Endpoint\.$/)
  })

  it('leaves a page without global flags alone', () => {
    expect(shapeCommandHelp('USAGE\n  $ kube-node x\n', globals)).toBe('USAGE\n  $ kube-node x\n')
  })
})
