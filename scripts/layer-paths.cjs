// The folders the import rules name, shared by .dependency-cruiser.cjs (imports) and
// scripts/check-globals.mjs (globals such as process.env, which no import shows): one list each.

/** Pure modules: decisions, pod facts, status, the manifest's decode/validate/defaults, the CRI config builders. */
const PURE = [
  '^src/(decide|status|pod)/',
  '^src/pleg/events\\.ts$',
  '^src/images/pull-policy\\.ts$',
  // All of manifest/ but what reads locations (files, URLs, standard input).
  '^src/manifest/(?!(read|load|fetch-url)\\.ts$)',
  // All of kuberuntime/ but the readers of what containers wrote (logs, termination messages).
  '^src/kuberuntime/(?!(logs|termination-message)\\.ts$)',
]

/** The core: it gets runtime, clock, logger and every value from the environment injected by node/. */
const CORE = ['^src/(loop|decide|apply|sources|manifest|status|pleg|prober|kuberuntime|images|volumes|store|pod)/']

module.exports = {PURE, CORE}
