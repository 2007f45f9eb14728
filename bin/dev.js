#!/usr/bin/env -S node --import tsx
// Development entry point: runs the TypeScript sources directly (needs `npm i -D tsx`).
// CommonJS, as bin/run.js (bin/package.json).
'use strict'
require('@oclif/core').execute({development: true, dir: require('node:path').join(__dirname, '..')})
