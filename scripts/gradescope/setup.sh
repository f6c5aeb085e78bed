#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (Ubuntu): Node from nodejs.org at a pinned version, checked against the
# release's SHASUMS256.txt, then the course's locked dependencies (npm ci).
# AUTOGRADER_ROOT replaces /autograder (a local simulation).
set -euo pipefail
NODE_VERSION=20.20.2
SOURCE="${AUTOGRADER_ROOT:-/autograder}/source"

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends ca-certificates curl xz-utils

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "setup.sh: no Node build for $(uname -m)" >&2; exit 1 ;;
esac
tarball="node-v$NODE_VERSION-linux-$arch.tar.xz"
work=$(mktemp -d)
cd "$work"
curl -fsSLO "https://nodejs.org/dist/v$NODE_VERSION/$tarball"
curl -fsSLO "https://nodejs.org/dist/v$NODE_VERSION/SHASUMS256.txt"
grep " $tarball\$" SHASUMS256.txt | sha256sum -c -
tar -xJf "$tarball" -C /usr/local --strip-components=1
echo "node $(node --version), npm $(npm --version)"

cd "$SOURCE"
npm ci --no-audit --no-fund
chmod +x run_autograder
