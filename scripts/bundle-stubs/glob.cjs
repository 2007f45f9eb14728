// Stand-in for `tinyglobby` (and so for fdir and picomatch, which only it loads) in the bundle
// (scripts/bundle.mjs). oclif's Plugin globs a plugin's commands directory with it when the
// plugin has no manifest; the bundle's one plugin (src/entry/bundled-plugin.ts) serves its
// commands from memory and never globs, and the bundle has no command files to find. Loading the
// three cost about 4 ms of every start. If oclif ever globs, this fails loudly rather than
// finding nothing.
'use strict'

function notBundled() {
  throw new Error('kube-node bundle: file globbing (tinyglobby) is not part of the bundle; oclif tried to search for command files')
}

module.exports = {glob: notBundled, globSync: notBundled, convertPathToPattern: notBundled, escapePath: notBundled, isDynamicPattern: notBundled}
