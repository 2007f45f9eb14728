// The CLI's runtime entry, for bin/run.js: oclif's execute, bundled (scripts/bundle.mjs) with the
// code every command shares, so that a start reads a few files instead of hundreds.
export {execute} from '@oclif/core'
