#!/usr/bin/env bash
# Installs everything and launches Draftlight on the offline default model.
set -euo pipefail
cd "$(dirname "$0")/.."
DRAFTLIGHT_EXTRAS=test bash scripts/setup.sh
# A launcher in the desktop's application menu, so the next start is a double-click.
# The same code as `draftlight --install-desktop` (app/shell/desktop_install.py); Linux menus only.
if [ "$(uname -s)" = Linux ]; then
    .venv/bin/draftlight --install-desktop >/dev/null || echo "(no desktop launcher installed)"
fi
exec .venv/bin/draftlight "$@"
