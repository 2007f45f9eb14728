// The message of a `Killing` event, in the kubelet's words (computePodActions and
// computeInitContainerActions in kuberuntime_manager.go, startContainer's postStart failure),
// from the reason a KillContainer action carries. People and alerts match these messages, so a
// probe kill reads "Container web failed liveness probe, will be restarted", not a generic
// "Stopping container web". Pure.

/** The reason a postStart hook failure gives its kill (apply/lifecycle.ts uses the same word). */
const POST_START_HOOK_KILL = 'FailedPostStartHook'

/**
 * `reason` is the kill action's reason (decide/compute-pod-actions.ts, decide/init-actions.ts);
 * `restarted` whether the same plan starts the container again. The kubelet adds
 * ", will be restarted" only for regular containers; its init-container messages never say it.
 * Anything it has no words for (a pod's termination, a created container that never ran) is
 * the plain "Stopping container X".
 */
export function killingMessage(name: string, reason: string | undefined, restarted: boolean): string {
  const why = reason ?? ''
  if (why === POST_START_HOOK_KILL) return POST_START_HOOK_KILL
  const init = /^(sidecar|init container) "/.test(why)
  const who = init ? 'Init container' : 'Container'
  if (/ is in an unknown state$/.test(why)) return `${who} is in "unknown" state, try killing it before restart`
  let message: string
  if (/ failed its liveness probe$/.test(why)) message = `${who} ${name} failed liveness probe`
  else if (/ failed its startup probe$/.test(why)) message = `${who} ${name} failed startup probe`
  else if (/'s spec changed\b/.test(why)) message = `${who} ${name} definition changed`
  else return `Stopping container ${name}`
  return restarted && !init ? `${message}, will be restarted` : message
}
