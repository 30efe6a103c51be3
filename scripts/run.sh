#!/usr/bin/env bash
# Installs everything and launches Draftlight on the offline default model.
set -euo pipefail
cd "$(dirname "$0")/.."
DRAFTLIGHT_EXTRAS=test bash scripts/setup.sh
exec .venv/bin/draftlight "$@"
