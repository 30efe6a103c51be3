"""Adding a spec type is one declaration: a test-only drafter registered by a fixture is
listed by the panel, both command lines and the settings file, and shown on its tokens."""

from __future__ import annotations

import json

import pytest
from engine.echo_drafter import NAME, registered

from app.panel.generation_panel import GenerationPanel
from app.shell.main import build_parser as window_parser
from app.transcript.token_view import token_tooltip
from backend.cli.main import build_parser as cli_parser
from backend.engine.events import Token
from backend.settings import load_settings


@pytest.fixture
def echo():
    with registered() as spec:
        yield spec


@pytest.fixture
def panel(qtbot):
    p = GenerationPanel()
    qtbot.addWidget(p)
    return p


def _cli_spec(spec: str) -> str:
    return cli_parser().parse_args(["generate", "--model", "m.gguf", "--spec", spec, "p"]).spec_type


def _saved_spec(tmp_path, spec: str) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"schema_version": 1, "generation": {"spec_type": spec}}))
    return load_settings(path).generation.spec_type


def test_a_registered_spec_type_is_listed_everywhere(echo, panel, tmp_path):
    i = panel.spec_combo.findData(NAME)
    assert i >= 0 and panel.spec_combo.itemText(i) == echo.label
    assert panel.set_spec_type(NAME)  # it needs no draft model or MTP heads
    assert panel.n_draft.isEnabled() and not panel.p_min.isEnabled()
    assert panel.generation_settings().spec_type == NAME
    assert _cli_spec(NAME) == NAME
    assert window_parser().parse_args(["--spec", NAME]).spec == NAME
    assert _saved_spec(tmp_path, NAME) == NAME
    assert "drafted by echo" in token_tooltip(1, Token(5, "x", NAME, False))


def test_without_its_declaration_no_one_lists_it(panel, tmp_path, capsys):
    assert panel.spec_combo.findData(NAME) == -1
    with pytest.raises(SystemExit):
        _cli_spec(NAME)
    assert "invalid choice: 'echo'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        window_parser().parse_args(["--spec", NAME])
    assert _saved_spec(tmp_path, NAME) == "none"
