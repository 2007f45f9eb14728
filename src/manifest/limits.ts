// Named limits on one manifest location (a file, a URL's body, standard input), checked before
// and during decoding so that no input of any shape can stall kube-node or fill its memory.
// Real manifests stay far below each: a kubeadm kube-apiserver pod is ~1,500 YAML tokens deep
// 8 levels; a ConfigMap with a 5,000-line script is a handful of tokens.

/** Bytes of one location (the kubelet's maxConfigLength is 10 MiB too). Enforced when reading. */
export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024

/** Bytes read from one directory in all; the files past it are reported, the others read. */
export const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024

/** Manifest files read from one directory; more are reported, not read. */
export const MAX_DIRECTORY_FILES = 1000

/** YAML documents in one location, whatever separates them (`---`, `...`). */
export const MAX_DOCUMENTS = 1000

/** Kubernetes objects in one location: documents plus the items of every List/PodList. */
export const MAX_OBJECTS = 1000

/** Significant YAML tokens (scalars, indicators, brackets, anchors, aliases, tags) in one location. */
export const MAX_TOKENS = 100_000

/** Nesting of `[` and `{`. */
export const MAX_FLOW_DEPTH = 100

/** Indentation plus `- `/`? `/`: ` indicators on one line: a bound on block nesting. */
export const MAX_BLOCK_DEPTH = 1000

/**
 * Characters in double-quoted scalars (JSON strings too), all of one location together. The YAML
 * parser builds such strings a character at a time and keeps them as ropes of ~30 bytes a
 * character until they are used; the API server refuses objects over ~1.5 MiB anyway. Large
 * text fits in a block scalar (`|`) or single quotes, which cost nothing extra.
 */
export const MAX_DOUBLE_QUOTED = 2 * 1024 * 1024

// Per source: a directory's files together (a URL is one body, held to the limits above). Each
// file is also held to its own limits; these keep thirty files just under them from adding up.

/** Characters in double-quoted scalars of one directory's manifests together. */
export const MAX_SOURCE_DOUBLE_QUOTED = 4 * 1024 * 1024

/** Kubernetes objects (Pods, ConfigMaps, Secrets) of one directory's manifests together. */
export const MAX_SOURCE_OBJECTS = 1000
