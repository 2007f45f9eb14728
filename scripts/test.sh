#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as the README's second command: installs the
# project's dependencies, builds, sets up a private containerd (scripts/runtime.sh) and starts the
# end-to-end tests and the adversarial suite (hostile and careless input, test/adversarial) against
# it, and meanwhile type-checks, checks import cycles and layer rules and runs the unit and
# integration tests.
# The last line is "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

export CI="${CI:-}"
# Each section's header says how far into the run it starts (bash's SECONDS), for timing the suite.
section() { echo "== $* (at ${SECONDS}s)"; }
report_dir="$(mktemp -d)"
trap 'rm -rf "$report_dir"' EXIT

section dependencies
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm install, not npm ci: npm 11 leaves optional platform packages (rollup, esbuild) out of
  # the lock file it writes, and npm ci then refuses the lock as out of sync.
  npm install --no-audit --no-fund
fi

section build
npm run --silent build

section test tools
# Real tools the tests run, from Debian, installed once (as root) before any test needs them.
if [ "$(id -u)" = 0 ]; then
  # The packaging tests (test/e2e/packaging) build the .deb and check it with Debian's own tools;
  # test/e2e/metrics.test.ts checks every metrics endpoint with promtool (Debian's prometheus).
  missing=()
  for pkg in lintian systemd dpkg-dev binutils prometheus; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
  done
  # kubectl for test/e2e/kubectl.test.ts: the one on PATH, else Debian's kubernetes-client from
  # bookworm main (1.20: old, but it speaks the legacy discovery and meta.k8s.io/v1 Table the
  # read-only API serves; the integration test runs against it too). Chosen over the static binary
  # from dl.k8s.io, which build machines cannot always reach, and apt checks its signatures itself.
  command -v kubectl >/dev/null || missing+=(kubernetes-client)
  # test/e2e/systemd-notify.test.ts: systemd-notify (above) sends, a python3 socket receives.
  command -v python3 >/dev/null || missing+=(python3)
  # test/e2e/official-clients.test.ts: the official Python client, as Debian ships it (the
  # JavaScript one, @kubernetes/client-node, is a devDependency).
  dpkg-query -W -f='${Status}' python3-kubernetes 2>/dev/null | grep -q 'ok installed' || missing+=(python3-kubernetes)
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# The end-to-end files (each its own node, side by side) mostly wait on containerd, so they start
# first, in the background, and meanwhile the CPU-bound checks (types, import cycles, layer rules,
# unit and integration tests) run, then the adversarial suite, whose bounds (/healthz within a
# second under a flood) are asserted once those checks no longer load the cores. The end-to-end
# output is held back and printed after, whole. Last and alone, runtime-restart.test.ts, which
# kills the runtime the others use.
e2e_rc=0
run_e2e=0
if [ "$(id -u)" = 0 ] && [ "${KUBE_NODE_SKIP_E2E:-}" != 1 ]; then
  run_e2e=1
  section real runtime
  bash scripts/runtime.sh up
  eval "$(bash scripts/runtime.sh env)"
  section end-to-end tests start in the background
  node_modules/.bin/vitest run --config vitest.e2e.config.ts --project e2e --project packaging --reporter=default --reporter=json --outputFile="$report_dir/e2e.json" >"$report_dir/e2e.log" 2>&1 &
  e2e_pid=$!
  # A failed check below must not leave the suite running on (vitest itself, not an npx in front,
  # so that the signal reaches the process that stops its workers).
  trap 'kill "$e2e_pid" 2>/dev/null || true; rm -rf "$report_dir"' EXIT
else
  echo "end-to-end tests need root and the private containerd; skipped (KUBE_NODE_SKIP_E2E=${KUBE_NODE_SKIP_E2E:-})"
  if [ -n "$CI" ]; then echo "CI must run the end-to-end tests" >&2; e2e_rc=1; fi
fi

section static checks
npm run --silent typecheck
npm run --silent cycles
# The import rules of ARCHITECTURE.md (.dependency-cruiser.cjs for imports, scripts/check-globals.mjs
# for globals such as process.env): a violation names its rule.
npm run --silent layers

section unit and integration tests
unit_rc=0
npx vitest run --reporter=default --reporter=json --outputFile="$report_dir/unit.json" || unit_rc=$?

if [ "$run_e2e" = 1 ]; then
  section adversarial tests
  npx vitest run --config vitest.adversarial.config.ts --reporter=default --reporter=json --outputFile="$report_dir/adversarial.json" || e2e_rc=$?
  section end-to-end tests, as they ran in the background
  wait "$e2e_pid" || e2e_rc=$?
  cat "$report_dir/e2e.log"
  trap 'rm -rf "$report_dir"' EXIT
  section runtime restart tests
  npx vitest run --config vitest.e2e.config.ts --project runtime-restart --reporter=default --reporter=json --outputFile="$report_dir/runtime-restart.json" || e2e_rc=$?
fi

section summary
node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  for (const f of process.argv.slice(1)) {
    if (!fs.existsSync(f)) continue;
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
    // A test file that cannot even load counts as a failure.
    if (r.numFailedTests === 0) failed += r.numFailedTestSuites || 0;
  }
  console.log(`tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report_dir/unit.json" "$report_dir/e2e.json" "$report_dir/adversarial.json" "$report_dir/runtime-restart.json"

[ "$unit_rc" = 0 ] && [ "$e2e_rc" = 0 ]
