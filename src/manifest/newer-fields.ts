// Fields of Kubernetes releases newer than the generated schema (src/api/generated) that the
// documentation already shows: an unknown-field error for one of them says which release and
// feature it belongs to and what kube-node does with it, instead of looking like a typo. Keyed by
// the schema type and field name. Pure data; a schema bump that makes a field known makes its
// entry unused (field-support.ts then needs a record for it).

export const NEWER_FIELDS: Readonly<Record<string, string>> = {
  'EmptyDirVolumeSource.mode':
    "emptyDir's mode, the directory's permission bits (EmptyDirVolumeMode, KEP-5502, alpha in Kubernetes v1.37); kube-node honours it when the field is accepted with --validate=warn",
  'SecurityContext.cgroupOptions':
    "a container's cgroup mount mode (CgroupOptions, KEP-5474, alpha in Kubernetes v1.38), which kube-node refuses whatever --validate says",
}

/** What is known of a field newer than the schema, or undefined. */
export function newerField(type: string, key: string): string | undefined {
  const k = `${type}.${key}`
  return Object.hasOwn(NEWER_FIELDS, k) ? NEWER_FIELDS[k] : undefined
}
