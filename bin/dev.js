#!/usr/bin/env -S node --import tsx
// Development entry point: runs the TypeScript sources directly (needs `npm i -D tsx`).
import {execute} from '@oclif/core'

await execute({development: true, dir: import.meta.url})
