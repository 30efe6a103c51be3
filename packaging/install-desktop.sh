#!/usr/bin/env bash
# Install a desktop launcher for this checkout (Linux, freedesktop menus): double-click to start.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
mkdir -p "$apps" "$icons"
cp app/draftlight.svg "$icons/draftlight.svg"
sed "s|^Exec=draftlight|Exec=$root/.venv/bin/draftlight|" packaging/draftlight.desktop \
    > "$apps/draftlight.desktop"
echo "Installed $apps/draftlight.desktop"
