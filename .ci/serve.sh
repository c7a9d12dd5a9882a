#!/usr/bin/env bash
# The README's serve command: set-up, a release build, and the page on loopback.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
echo "ABS Playground: http://127.0.0.1:8080/"
# No auto-reload: Trunk would add an inline script the page's policy does not allow.
exec trunk serve --release --no-autoreload --address 127.0.0.1 --port 8080
