// Stand-in for the `debug` package in the bundle (scripts/bundle.mjs). oclif's logger
// (lib/logger.js) and `autocomplete create` make their DEBUG=* tracers with it; the real package
// loads node:tty and supports-color and parses DEBUG at import, about 7 ms of every start, for
// tracing kube-node never shows (its own output is -v). Every tracer here is disabled: a call
// does nothing. The members are debug's own, so code that reads them still works.
'use strict'

function createDebug(namespace) {
  const debug = () => {}
  debug.namespace = namespace
  debug.enabled = false
  debug.log = () => {}
  debug.extend = (sub, delimiter = ':') => createDebug(`${namespace}${delimiter}${sub}`)
  debug.destroy = () => true
  return debug
}
createDebug.enabled = () => false
createDebug.enable = () => {}
createDebug.disable = () => ''
createDebug.debug = createDebug
createDebug.default = createDebug

module.exports = createDebug
