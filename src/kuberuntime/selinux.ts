// A pod's or container's seLinuxOptions as the CRI takes them. The kubelet passes them through
// unchanged; the runtime applies the label only where SELinux is enabled on the host. Pure.
import type {SELinuxOptions} from '../api/generated/types.js'
import type {SELinuxOption} from '../cri/api.js'

/** The CRI form, or undefined when nothing is set (an empty label asks for nothing). */
export function criSELinux(o: SELinuxOptions | undefined): SELinuxOption | undefined {
  if (!o) return undefined
  const out = {user: o.user ?? '', role: o.role ?? '', type: o.type ?? '', level: o.level ?? ''}
  return out.user || out.role || out.type || out.level ? out : undefined
}
