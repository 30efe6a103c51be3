#!/usr/bin/env bash
# Installs everything and launches Draftlight on the offline default model.
set -euo pipefail
cd "$(dirname "$0")/.."
DRAFTLIGHT_EXTRAS=test bash scripts/setup.sh
# A launcher in the desktop's application menu, so the next start is a double-click.
bash packaging/install-desktop.sh >/dev/null || echo "(no desktop launcher installed)"
exec .venv/bin/draftlight "$@"
