// Whether a container's image must be pulled before it starts (the kubelet's EnsureImageExists
// decision, without the pulling). Pure: `present` holds the normalised repo tags and repo
// digests of the images the runtime has.
import {imageRefCandidates, isValidImageRef} from './reference.js'

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never'

export type PullDecision =
  | {pull: true; reason: string}
  | {pull: false}
  | {error: 'ErrImageNeverPull' | 'InvalidImageName'; message: string}

/** True when the runtime holds `image` under any of its normalised names. */
export function isImagePresent(image: string, present: ReadonlySet<string>): boolean {
  return imageRefCandidates(image).some((ref) => present.has(ref))
}

export function decidePull(policy: PullPolicy, image: string, present: ReadonlySet<string>): PullDecision {
  if (!isValidImageRef(image)) {
    return {error: 'InvalidImageName', message: `Failed to apply default image tag "${image}": couldn't parse image name`}
  }
  if (policy === 'Always') return {pull: true, reason: `image "${image}" has imagePullPolicy Always`}
  if (isImagePresent(image, present)) return {pull: false}
  if (policy === 'Never') {
    return {error: 'ErrImageNeverPull', message: `Container image "${image}" is not present with pull policy of Never`}
  }
  return {pull: true, reason: `image "${image}" is not present and imagePullPolicy is IfNotPresent`}
}

/**
 * The API default for a container without `imagePullPolicy`: Always for `:latest` or an image
 * with neither tag nor digest, else IfNotPresent.
 */
export function defaultPullPolicy(image: string): PullPolicy {
  const at = image.indexOf('@')
  if (at >= 0) return 'IfNotPresent'
  const colon = image.lastIndexOf(':')
  if (colon <= image.lastIndexOf('/')) return 'Always'
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent'
}

/** The container's policy as written, or the API default when it is missing or not a policy. */
export function effectivePullPolicy(image: string, policy: string | undefined): PullPolicy {
  return policy === 'Always' || policy === 'IfNotPresent' || policy === 'Never' ? policy : defaultPullPolicy(image)
}
