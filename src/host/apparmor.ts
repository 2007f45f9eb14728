// Is AppArmor enforced on this host, and which profiles are loaded? Read as runc and the kubelet
// read it: the securityfs directory must exist and /sys/module/apparmor/parameters/enabled start
// with "Y"; the loaded profiles are the lines `name (mode)` of <securityfs>/apparmor/profiles.
// Read only when a pod asks for an AppArmor profile.
import {readFile, stat} from 'node:fs/promises'

export interface AppArmorHost {
  enabled: boolean
  /** Names of the loaded profiles (namespaced ones keep their `:ns://` prefix, as the kubelet's). */
  profiles: ReadonlySet<string>
}

const SECURITYFS_APPARMOR = '/sys/kernel/security/apparmor'
const ENABLED_PARAMETER = '/sys/module/apparmor/parameters/enabled'
/** The profiles file is small (one line per profile); a bound keeps a strange one from costing memory. */
const MAX_PROFILES_BYTES = 4 << 20

/** The profile names in the profiles file: the text before ` (mode)`; other lines are skipped. */
export function parseLoadedProfiles(text: string): Set<string> {
  const names = new Set<string>()
  for (const line of text.split('\n')) {
    const mode = line.lastIndexOf(' (')
    if (mode <= 0) continue
    const name = line.slice(0, mode).trim()
    if (name) names.add(name)
  }
  return names
}

export async function readAppArmorHost(root = ''): Promise<AppArmorHost> {
  const none: AppArmorHost = {enabled: false, profiles: new Set()}
  try {
    await stat(root + SECURITYFS_APPARMOR)
    const enabled = await readFile(root + ENABLED_PARAMETER, 'utf8')
    if (!enabled.startsWith('Y')) return none
  } catch {
    return none
  }
  try {
    const text = await readFile(`${root}${SECURITYFS_APPARMOR}/profiles`, 'utf8')
    return {enabled: true, profiles: parseLoadedProfiles(text.slice(0, MAX_PROFILES_BYTES))}
  } catch {
    // Enabled but unreadable (not root): every Localhost profile counts as not loaded.
    return {enabled: true, profiles: new Set()}
  }
}
