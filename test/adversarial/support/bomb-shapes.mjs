// Hostile and huge manifest shapes, each at most 10 MiB, shared by the bomb test and its child
// processes. Plain JavaScript so a child process can load it without a TypeScript loader.
export const SIZE = 10 * 1024 * 1024
const fill = (unit, prefix = '', suffix = '') => {
  const unitBytes = Buffer.byteLength(unit)
  const room = SIZE - Buffer.byteLength(prefix) - Buffer.byteLength(suffix)
  return prefix + unit.repeat(Math.floor(room / unitBytes)) + suffix
}
export const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: [{name: c, image: busybox}]\n'

function aliasBomb() {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
  for (let i = 1; i < 20; i++) lines.push(`${'b'.repeat(i)}: &${'a'.repeat(i + 1)} [${Array(10).fill(`*${'a'.repeat(i)}`).join(', ')}]`)
  return lines.join('\n') + '\n'
}

/** name → [make, expected outcome, pattern the issues must match when refused] */
export const SHAPES = {
  '5 MiB of [': [() => '['.repeat(5 * 1024 * 1024), 'refused', 'nests \\[ and \\{ deeper than 100'],
  '10 MiB of {': [() => fill('{'), 'refused', 'nests \\[ and \\{'],
  'a flow list of 5 million items': [() => fill('1,', '[', ']'), 'refused', 'YAML tokens'],
  '2 million a: b lines': [() => fill('a: b\n'), 'refused', 'YAML tokens'],
  '- repeated on one line': [() => fill('- '), 'refused', 'nests YAML blocks deeper than 1000'],
  '- on every line': [() => fill('- x\n'), 'refused', 'YAML tokens'],
  '... document ends': [() => fill('...\n'), 'refused', 'YAML tokens|documents'],
  '--- documents with content': [() => fill('--- 1\n'), 'refused', 'more than 1000 YAML documents'],
  '--- !tag documents': [() => fill('--- !t\n'), 'refused', 'more than 1000 YAML documents'],
  'pods separated by ...': [() => fill(`${POD}...\n`), 'refused', 'more than 1000 YAML documents'],
  'alias bomb': [aliasBomb, 'refused', 'invalid YAML|alias'],
  // Each document copies ~90 000 values, under the limit alone: the limit is per location.
  '380 documents of 90 000 alias copies each': [() => {
    const ten = (x) => `[${Array(10).fill(x).join(',')}]`
    const doc = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\na: &a ${ten(1)}\nb: &b ${ten('*a')}\nc: &c ${ten('*b')}\nd: &d ${ten('*c')}\ne: [*d,*d,*d,*d,*d,*d,*d]\n`
    return Array(380).fill(doc).join('---\n')
  }, 'refused', 'aliases expand to more than 100000 values in this location'],
  'deep block indentation': [() => Array.from({length: 3000}, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x\n', 'refused', 'deeper than 1000'],
  'one 10 MiB double-quoted scalar': [() => POD.replace('name: p', `name: p\n  annotations:\n    big: "${'y'.repeat(SIZE - 300)}"`), 'refused', 'more than 2 MiB of double-quoted strings'],
  'one 10 MiB plain scalar': [() => POD.replace('name: p', `name: p\n  annotations:\n    big: ${'y'.repeat(SIZE - 300)}`), 'accepted'],
  'one 10 MiB single-quoted scalar': [() => POD.replace('name: p', `name: p\n  annotations:\n    big: '${'y'.repeat(SIZE - 300)}'`), 'accepted'],
  'nine 1 MiB double-quoted scalars': [() => POD.replace('name: p', `name: p\n  annotations:\n${Array.from({length: 9}, (_, i) => `    k${i}: "${'y'.repeat(1024 * 1024 - 64)}"\n`).join('')}`), 'refused', 'more than 2 MiB of double-quoted strings'],
  'a 2 MiB JSON pod': [() => JSON.stringify({apiVersion: 'v1', kind: 'Pod', metadata: {name: 'p', annotations: {a: 'y'.repeat(1024 * 1024), b: 'y'.repeat(1000 * 1024)}}, spec: {containers: [{name: 'c', image: 'busybox'}]}}), 'accepted'],
  'a 10 MiB block scalar in a ConfigMap': [() => {
    const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  script: |\n'
    const line = '    echo hello world\n'
    const tail = `---\n${POD}`
    return head + line.repeat(Math.floor((SIZE - head.length - tail.length) / line.length)) + tail
  }, 'accepted'],
  'a 110k-item PodList': [() => `apiVersion: v1\nkind: PodList\nitems:\n${'- {}\n'.repeat(110_000)}`, 'refused', 'YAML tokens|at most 1000 objects'],
  'a 1001-item PodList under the token limit': [() => `apiVersion: v1\nkind: PodList\nitems:\n${'- {}\n'.repeat(1001)}`, 'refused', 'at most 1000 objects'],
  'one long line of garbage': [() => fill('a'), 'refused', 'kind'],
  'CRLF lines': [() => fill('a: b\r\n'), 'refused', 'YAML tokens'],
  'unicode keys': [() => fill('ключ: 値\n'), 'refused', 'YAML tokens'],
  // Found by the fuzzer: quadratic paths inside the YAML library, now avoided.
  '30 000 distinct keys in one map': [() => Array.from({length: 15_000}, (_, i) => `k${i}: v`).join('\n') + '\n', 'refused', 'kind'],
  'complex keys with anchors': [() => '? &a k: v\n'.repeat(30_000), 'refused', 'mapping key must be a plain value|YAML tokens'],
  'a syntax error every few bytes': [() => '#c\n: \r\n|\n'.repeat(33_000), 'refused', 'invalid YAML'],
  '190 000 double quotes': [() => '"'.repeat(190_000), 'refused', 'invalid YAML|YAML tokens'],
  'a minified JSON ConfigMap of 5000 keys on one line': [() => JSON.stringify({apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'many'}, data: Object.fromEntries(Array.from({length: 5000}, (_, i) => [`k${i}`, 'v']))}) + '\n---\n' + POD, 'accepted'],
  '15 000 unknown fields in one container': [() => POD.replace('image: busybox}', `image: busybox, ${Array.from({length: 15_000}, (_, i) => `k${i}: v`).join(', ')}}`), 'refused', 'containers\\[0\\]\\.k0: unknown field'],
  'quantity 1e999999999': [() => POD.replace('image: busybox', 'image: busybox, resources: {limits: {cpu: "1e999999999"}}'), 'refused', 'cpu.*exponent'],
  'quantity 1e400': [() => POD.replace('image: busybox', 'image: busybox, resources: {requests: {memory: "1e400"}}'), 'refused', 'memory.*exponent'],
}
