// Runs one bomb shape through the built manifest pipeline in its own process, under the heap
// limit the test gives it (--max-old-space-size), and prints what happened as one JSON line.
import {SHAPES} from './bomb-shapes.mjs'
const {buildManifests} = await import(new URL('../../../dist/manifest/build.js', import.meta.url).href)
const [make] = SHAPES[process.argv[2]]
const text = make()
const started = performance.now()
const result = buildManifests([{location: 'bomb.yaml', source: 'file', text}], {nodeName: 'adv'})
const ms = performance.now() - started
const issues = result.issues.map((i) => `${i.field}: ${i.message}`)
process.stdout.write(JSON.stringify({ms, bytes: Buffer.byteLength(text), pods: result.pods.length, issues: issues.slice(0, 3), peakRssMiB: process.resourceUsage().maxRSS / 1024}) + '\n')
