// The runtime's optional features and the host's AppArmor, read once per process and only when a
// pod first needs them (decide/runtime-support.ts needsRuntimeSupport): a run of plain pods makes
// no extra CRI call. A failed read is not kept, so the next pod that needs it asks again.
import type {RuntimeService} from '../cri/port.js'
import type {RuntimeSupport} from '../decide/runtime-support.js'
import type {AppArmorHost} from '../host/apparmor.js'
import {escapeControls} from '../util/terminal-text.js'

/** The runtime's own words end up in pod messages and terminals: escaped and bounded. */
const shown = (s: string): string => escapeControls(s.slice(0, 100))

export function runtimeSupportLoader(runtime: RuntimeService, readAppArmor: () => Promise<AppArmorHost>): () => Promise<RuntimeSupport> {
  let pending: Promise<RuntimeSupport> | undefined
  const load = async (): Promise<RuntimeSupport> => {
    const [version, features, appArmor] = await Promise.all([runtime.version(), runtime.runtimeFeatures(), readAppArmor()])
    return {
      runtime: {name: shown(version.runtimeName), version: shown(version.runtimeVersion)},
      handlers: features.handlers,
      supplementalGroupsPolicy: features.supplementalGroupsPolicy,
      appArmor,
    }
  }
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined
      throw err
    })
    return pending
  }
}
