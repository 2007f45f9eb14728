// Generates the Kubernetes API types and known-field schema kube-node uses from one named
// Kubernetes version's OpenAPI, as gen-cri.mjs does for the CRI.
//
//   node scripts/gen-api.mjs --refresh swagger.json --version v1.36
//       keeps, from a full upstream swagger.json (api/openapi-spec/swagger.json of that release),
//       the definitions reachable from the kinds kube-node reads, without their prose, in
//       proto/kubernetes-api.json
//   node scripts/gen-api.mjs            writes src/api/generated/{types,schema}.ts from it
//   node scripts/gen-api.mjs --check    exits 1 when those files are not what it would write
import {readFileSync, writeFileSync, mkdirSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const specPath = join(root, 'proto/kubernetes-api.json')
const outDir = join(root, 'src/api/generated')

/** The kinds kube-node decodes or serves; everything they reference comes along. */
const ROOTS = ['Pod', 'PodList', 'ConfigMap', 'Secret', 'Event', 'EventList'].map((k) => `io.k8s.api.core.v1.${k}`)
/** What the subset keeps of a schema: its shape, not its prose or patch hints. */
const KEPT = new Set(['type', 'format', '$ref', 'items', 'additionalProperties', 'properties', 'required', 'x-kubernetes-group-version-kind'])

const refName = (ref) => ref.replace('#/definitions/', '')
const shortName = (full) => full.slice(full.lastIndexOf('.') + 1)

function refresh(fullPath, version) {
  const full = JSON.parse(readFileSync(fullPath, 'utf8'))
  const defs = full.definitions
  const keep = new Set()
  const queue = [...ROOTS]
  while (queue.length > 0) {
    const name = queue.pop()
    if (keep.has(name)) continue
    if (!defs[name]) throw new Error(`gen-api: ${name} is not in ${fullPath}`)
    keep.add(name)
    JSON.stringify(defs[name], (k, v) => {
      if (k === '$ref') queue.push(refName(v))
      return v
    })
  }
  const strip = (schema) => {
    if (schema === null || typeof schema !== 'object') return schema
    const out = {}
    for (const [k, v] of Object.entries(schema)) {
      if (!KEPT.has(k)) continue
      if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strip(s)]))
      else if (k === 'items' || k === 'additionalProperties') out[k] = strip(v)
      else out[k] = v
    }
    return out
  }
  const definitions = Object.fromEntries([...keep].sort().map((n) => [n, strip(defs[n])]))
  const subset = {info: {title: 'Kubernetes', version}, definitions}
  writeFileSync(specPath, JSON.stringify(subset, null, 1) + '\n')
  console.log(`gen-api: ${keep.size} definitions of Kubernetes ${version} in ${specPath}`)
}

// --- generation --------------------------------------------------------------------------------

/** Definitions that are scalars on the wire, by their own name. */
function scalarOf(full, def) {
  if (def.properties || def.type === 'object') return undefined
  if (def.format === 'int-or-string') return 'int-or-string'
  if (full.endsWith('.Quantity')) return 'quantity'
  if (def.format === 'date-time') return 'time'
  return def.type
}

function tsType(schema, defs) {
  if (schema.$ref) {
    const full = refName(schema.$ref)
    const scalar = scalarOf(full, defs[full])
    if (scalar === 'int-or-string') return 'number | string'
    if (scalar === 'quantity') return 'Quantity'
    if (scalar === 'time') return 'string'
    if (full.endsWith('.FieldsV1')) return 'Record<string, unknown>'
    return shortName(full)
  }
  switch (schema.type) {
    case 'string': return 'string'
    case 'integer': case 'number': return 'number'
    case 'boolean': return 'boolean'
    case 'array': return `Array<${tsType(schema.items, defs)}>`
    case 'object':
      return schema.additionalProperties ? `Record<string, ${tsType(schema.additionalProperties, defs)}>` : 'Record<string, unknown>'
    default: throw new Error(`gen-api: no TypeScript type for ${JSON.stringify(schema)}`)
  }
}

/**
 * The schema table's shape of a field: a scalar, a type name, `X[]` for a list, `{}X` for a map.
 * Integers keep their width (`int32`, `int64`, the Go type the decoder fills), since a value out of
 * its range is a decoding error as much as a string is.
 */
function shape(schema, defs) {
  if (schema.$ref) {
    const full = refName(schema.$ref)
    if (full.endsWith('.FieldsV1')) return 'any'
    return scalarOf(full, defs[full]) ?? shortName(full)
  }
  switch (schema.type) {
    case 'array': return `${shape(schema.items, defs)}[]`
    case 'object': return schema.additionalProperties ? `{}${shape(schema.additionalProperties, defs)}` : 'any'
    case 'integer': return schema.format === 'int32' ? 'int32' : 'int64'
    default: return schema.type
  }
}

const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name))

function generate() {
  const spec = JSON.parse(readFileSync(specPath, 'utf8'))
  const defs = spec.definitions
  const version = spec.info.version
  const header = (what) => `// Generated by scripts/gen-api.mjs from proto/kubernetes-api.json (Kubernetes ${version}): ${what}.\n// Do not edit; run \`npm run gen:api\`.\n`
  const names = Object.keys(defs).sort((a, b) => shortName(a).localeCompare(shortName(b)))
  const seen = new Map()
  for (const n of names) {
    if (seen.has(shortName(n))) throw new Error(`gen-api: ${n} and ${seen.get(shortName(n))} share a name`)
    seen.set(shortName(n), n)
  }

  let types = header('the v1 API types') + '\n/** A resource quantity (`100m`, `64Mi`); YAML may give it as a number. */\nexport type Quantity = string\n'
  let schema = header('the fields of each type and their shapes, for unknown-field and shape checks')
  schema += `\n/** The Kubernetes version whose OpenAPI this comes from. */\nexport const API_VERSION_SOURCE = ${JSON.stringify(version)}\n`
  schema += '\n/** Type name → field → shape: a scalar (string, int32, int64, number, boolean, int-or-string, quantity, time, any), a type name, `X[]` a list, `{}X` a map. */\n'
  schema += 'export const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {\n'
  for (const full of names) {
    const def = defs[full]
    if (!def.properties) continue
    const name = shortName(full)
    const required = new Set(def.required ?? [])
    types += `\nexport interface ${name} {\n`
    schema += `  ${key(name)}: {`
    const props = Object.keys(def.properties).sort()
    for (const p of props) types += `  ${key(p)}${required.has(p) ? '' : '?'}: ${tsType(def.properties[p], defs)}\n`
    schema += props.map((p) => `${key(p)}: ${JSON.stringify(shape(def.properties[p], defs))}`).join(', ')
    types += '}\n'
    schema += '},\n'
  }
  schema += '}\n\n/** Kind → its type name, for the objects kube-node decodes. */\n'
  const kinds = {}
  for (const full of names) for (const gvk of defs[full]['x-kubernetes-group-version-kind'] ?? []) if (gvk.group === '' && gvk.version === 'v1') kinds[gvk.kind] = shortName(full)
  schema += `export const KINDS: Readonly<Record<string, string>> = ${JSON.stringify(kinds)}\n`
  return {'types.ts': types, 'schema.ts': schema}
}

const args = process.argv.slice(2)
if (args[0] === '--refresh') {
  const version = args[args.indexOf('--version') + 1]
  if (!args[1] || args.indexOf('--version') < 0 || !version) throw new Error('usage: gen-api.mjs --refresh swagger.json --version vX.Y')
  refresh(args[1], version)
}
const files = generate()
if (args.includes('--check')) {
  const stale = Object.entries(files).filter(([f, text]) => {
    try {
      return readFileSync(join(outDir, f), 'utf8') !== text
    } catch {
      return true
    }
  })
  if (stale.length > 0) {
    console.error(`gen-api: ${stale.map(([f]) => f).join(', ')} in src/api/generated differ from proto/kubernetes-api.json; run npm run gen:api`)
    process.exit(1)
  }
} else {
  mkdirSync(outDir, {recursive: true})
  for (const [f, text] of Object.entries(files)) writeFileSync(join(outDir, f), text)
  console.log(`gen-api: ${Object.keys(files).join(', ')} in ${outDir}`)
}
