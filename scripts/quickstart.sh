#!/usr/bin/env bash
# The README's first command: on a fresh Debian machine (as root) install everything kube-node
# needs (npm packages, containerd, runc, CNI plugins, test images), build it, start a private
# containerd, and run the example pod from manifests/hello.yaml through it.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update && apt-get install -y nodejs npm
fi
npm install --no-audit --no-fund
npm run --silent build
bash scripts/runtime.sh up
eval "$(bash scripts/runtime.sh env)"
node bin/run.js run -f manifests/hello.yaml --node-name "${NODE_NAME:-$(hostname)}"
node bin/run.js get pods -o wide
