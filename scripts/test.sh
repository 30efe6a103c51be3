#!/usr/bin/env bash
# Installs everything and runs the whole test suite: architecture contract, lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
echo "== import contract (backend/ must not import Qt)"
lint-imports
echo "== ruff"
ruff check .
echo "== mypy"
mypy
echo "== pytest"
python -m pytest "$@"
