// Manifest text for integration tests: one `main` container that sleeps, with room for extra
// spec lines (indented two spaces, ending in a newline) and annotations.
export function podManifest(name: string, opts: {image: string; extra?: string; annotations?: Record<string, string>}): string {
  const entries = Object.entries(opts.annotations ?? {})
  const annotations = entries.length === 0 ? '' : `  annotations:\n${entries.map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`).join('')}`
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
${annotations}spec:
  terminationGracePeriodSeconds: 5
${opts.extra ?? ''}  containers:
  - name: main
    image: ${opts.image}
    command: ["sleep", "3600"]
`
}
