"""Each setting's limits at every edge, through the settings file, the side panel, both
command lines and the engine's request: the same everywhere, and a value one of them saves is
read unchanged by the others."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QLabel
from scripted_engine import ScriptedEngine

from app.panel.generation_panel import GenerationPanel
from app.shell.main import build_parser as window_parser
from backend import settings_schema as schema
from backend.cli.main import build_parser as cli_parser
from backend.engine.request import PARTS, GenerationRequest
from backend.generation_settings import GenerationSettings, generation_request
from backend.settings import load_settings

NUMERIC = [o for o in schema.OPTIONS.values() if o.minval is not None]


def _edge(option: schema.Option, edge: str):
    return option.minval if edge == "min" else option.maxval


def _past(option: schema.Option, edge: str):
    """The nearest value beyond an edge that the option's precision can express."""
    unit = 1 if option.kind is int else 10 ** -option.decimals
    value = option.minval - unit if edge == "min" else option.maxval + unit
    return value if option.kind is int else round(value, option.decimals)


def _panel_input(panel: GenerationPanel, option: schema.Option):
    return getattr(panel, option.name)


def _load(tmp_path, option: schema.Option, value):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"schema_version": 1, option.section: {option.name: value}}))
    settings = load_settings(path)
    return getattr(getattr(settings, option.section), option.name), settings.problems


def _cli(option: schema.Option, value):
    args = cli_parser().parse_args(["generate", "--model", "m.gguf", option.cli, str(value),
                                    "a prompt"])
    return getattr(args, _dest(option))


def _dest(option: schema.Option) -> str:
    return option.name  # `draftlight generate` keeps each setting under its own name


def _request(option: schema.Option, value) -> GenerationRequest:
    """The request the settings make with `value` (ValueError, naming the setting, when it
    refuses it)."""
    return generation_request(GenerationSettings(**{option.name: value}), prompt="x")


def _at(request: GenerationRequest, path: str):
    """The value at a request field's path ("sampling.temperature")."""
    for name in path.split("."):
        request = getattr(request, name)
    return request


def _bare_request(option: schema.Option, value) -> GenerationRequest:
    """A request made with `value` in the option's field directly, as a bench or a trace
    reader makes one (ValueError, naming the field, when it refuses it)."""
    part, _, name = option.request.rpartition(".")
    if part:
        return GenerationRequest(prompt="x", **{part: PARTS[part](**{name: value})})
    return GenerationRequest(prompt="x", **{name: value})


@pytest.fixture
def panel(qtbot):
    p = GenerationPanel()
    qtbot.addWidget(p)
    return p


def test_the_panel_is_built_from_the_declarations(panel):
    labels = {label.text() for label in panel.findChildren(QLabel)}
    for option in NUMERIC:
        w = _panel_input(panel, option)
        assert (w.minimum(), w.maximum()) == (option.minval, option.maxval), option.key
        assert w.value() == option.default, option.key
        assert w.toolTip() == option.tooltip
        assert option.label in labels
    assert panel.n_threads.specialValueText() == "auto"
    assert panel.seed.specialValueText() == "random"


def test_every_declared_option_is_a_setting_and_a_command_line_default(tmp_path):
    settings = load_settings(tmp_path / "missing.json")
    for option in schema.OPTIONS.values():
        assert getattr(getattr(settings, option.section), option.name) == option.default
    args = cli_parser().parse_args(["generate", "--model", "m.gguf", "a prompt"])
    for option in NUMERIC:
        assert getattr(args, _dest(option)) == option.default, option.key


@pytest.mark.parametrize("edge", ["min", "max"])
@pytest.mark.parametrize("option", NUMERIC, ids=lambda o: o.key)
def test_an_edge_value_is_kept_everywhere(option, edge, panel, tmp_path):
    value = _edge(option, edge)
    assert _load(tmp_path, option, value) == (value, [])
    w = _panel_input(panel, option)
    w.setValue(value)
    assert w.value() == value
    assert _cli(option, value) == value
    if option.request:
        for request in (_request(option, value), _bare_request(option, value)):
            assert _at(request, option.request) == value
    if option is schema.N_DRAFT:  # the window's own command line has --n-draft too
        assert window_parser().parse_args(["--n-draft", str(value)]).n_draft == value


@pytest.mark.parametrize("edge", ["min", "max"])
@pytest.mark.parametrize("option", NUMERIC, ids=lambda o: o.key)
def test_a_value_past_an_edge_is_refused_everywhere(option, edge, panel, tmp_path, capsys):
    value = _past(option, edge)
    loaded, problems = _load(tmp_path, option, value)
    assert loaded == option.default
    assert len(problems) == 1 and option.label in str(problems[0]) and "outside" in str(problems[0])
    w = _panel_input(panel, option)
    if option.kind is int and not -(2**31) <= value < 2**31:
        # past a Qt spin box's 32-bit range, which is why the declaration stops at 2³¹−1
        with pytest.raises(OverflowError), pytest.warns(RuntimeWarning):
            w.setValue(value)
        assert w.value() == option.default
    else:
        w.setValue(value)
        assert w.value() == _edge(option, edge)  # the spin box cannot hold it
    with pytest.raises(SystemExit):
        _cli(option, value)
    assert option.cli in capsys.readouterr().err
    if option.request:
        with pytest.raises(ValueError, match=option.label):
            _request(option, value)
        with pytest.raises(ValueError, match=option.request.rpartition(".")[2]):
            _bare_request(option, value)
    if option is schema.N_DRAFT:
        with pytest.raises(SystemExit):
            window_parser().parse_args(["--n-draft", str(value)])


@pytest.mark.parametrize("edge", ["min", "max"])
def test_values_at_an_edge_saved_by_the_window_are_read_unchanged(edge, make_window,
                                                                  settings_path):
    """The settings file → the window → the settings file again → the command line."""
    written: dict[str, dict] = {"window": {}, "models": {}, "generation": {}}
    for option in NUMERIC:
        written[option.section][option.name] = _edge(option, edge)
    settings_path.write_text(json.dumps({"schema_version": 1, **written}))
    w = make_window(ScriptedEngine())
    assert w.settings.problems == []
    for option in NUMERIC:
        assert _panel_input(w.panel, option).value() == _edge(option, edge), option.key
    w.close()  # saves

    saved = json.loads(settings_path.read_text())
    again = make_window(ScriptedEngine())
    for option in NUMERIC:
        value = saved[option.section][option.name]
        assert value == _edge(option, edge), option.key
        assert _panel_input(again.panel, option).value() == value
        assert _cli(option, value) == value


def test_a_saved_value_out_of_range_is_reported_not_changed_silently(make_window,
                                                                     settings_path):
    settings_path.write_text(json.dumps({"schema_version": 1, "generation": {
        "temperature": 3.0, "top_p": 0.333, "top_k": 40}}))
    w = make_window(ScriptedEngine())
    assert not w.banner_row.isHidden()
    assert "Temperature 3.0 in the settings file is outside 0.0 to 2.0; using 0.0." in (
        w.banner.text())
    assert "Top-p 0.333 in the settings file has more than 2 decimals; using 0.33." in (
        w.banner.text())
    assert w.panel.temperature.value() == schema.TEMPERATURE.default
    assert w.panel.top_p.value() == 0.33
    assert w.panel.top_k.value() == 40  # the valid value beside them is kept
