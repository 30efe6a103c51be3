"""Refresh the translations: list backend/'s declared texts for lupdate (a scratch file of
QT_TRANSLATE_NOOP lines), run pyside6-lupdate over app/ and it into
resources/translations/draftlight_<lang>.ts, then pyside6-lrelease into the .qm files the app
loads (committed, see README "Languages").

    .venv/bin/python scripts/update_translations.py          # after changing visible strings
    .venv/bin/python scripts/update_translations.py --check  # exit 1 if anything is stale

Translate the new messages in the .ts files (Qt Linguist: `pyside6-linguist FILE`, or any
editor) and run it again to rebuild the .qm files.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.backend_text import CONTEXT, backend_messages  # noqa: E402
from app.i18n import TRANSLATED  # noqa: E402

TRANSLATIONS = ROOT / "resources" / "translations"


def tool(name: str) -> str:
    """A Qt tool beside this interpreter (the venv's bin/), else on PATH."""
    here = Path(sys.executable).with_name(name)
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: it comes with PySide6 (pip install PySide6)")
    return found


def backend_strings_source() -> str:
    lines = ["# The texts declared in backend/ that app/backend_text.py translates, for lupdate."]
    lines += [f"QT_TRANSLATE_NOOP({CONTEXT!r}, {text!r})" for text in backend_messages()]
    return "\n".join(lines) + "\n"


def update(out_dir: Path) -> None:
    """Write the .ts files (merged with the translations already there) and the .qm files
    into `out_dir` (resources/translations/ itself, or a scratch copy)."""
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app").rglob("*.py"))
    with tempfile.TemporaryDirectory() as scratch:
        backend_strings = Path(scratch) / "backend_strings.py"
        backend_strings.write_text(backend_strings_source(), encoding="utf-8")
        for language in TRANSLATED:
            ts = out_dir / f"draftlight_{language}.ts"
            subprocess.run([tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-locations",
                            "none", *files, str(backend_strings), "-ts", str(ts)], cwd=ROOT,
                           check=True)
            subprocess.run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm",
                            str(ts.with_suffix(".qm"))], cwd=ROOT, check=True)


def stale() -> list[str]:
    """The files in resources/translations/ that update() would change."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        for path in TRANSLATIONS.iterdir():
            if path.suffix in (".ts", ".qm"):
                shutil.copy(path, out / path.name)
        update(out)
        return [p.name for p in sorted(out.iterdir())
                if not (TRANSLATIONS / p.name).exists()
                or (TRANSLATIONS / p.name).read_bytes() != p.read_bytes()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 naming the files that are out of date")
    args = parser.parse_args(argv)
    if args.check:
        changed = stale()
        if changed:
            print("out of date: " + ", ".join(changed) + " (run scripts/update_translations.py)")
        return 1 if changed else 0
    TRANSLATIONS.mkdir(exist_ok=True)
    update(TRANSLATIONS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
