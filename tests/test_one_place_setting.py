"""A setting declared in one place, the schema (tests/added_setting.py registers one), is a
`draftlight generate` option, reaches the engine's request, is saved in and read from the
settings file, and is kept in an answer's record of its settings, with no other change."""

from __future__ import annotations

import json

import pytest
from added_setting import REPEAT_LAST_N, registered

from backend.cli import generate
from backend.cli.main import build_parser
from backend.generation_settings import GenerationSettings, generation_request
from backend.settings import Settings, load_settings, save_settings

ARGS = ["generate", "--model", "m.gguf"]


@pytest.fixture
def setting():
    with registered() as option:
        yield option


def test_it_is_nothing_before_it_is_declared(capsys):
    assert "repeat_last_n" not in GenerationSettings().to_dict()
    with pytest.raises(SystemExit):
        build_parser().parse_args([*ARGS, "--repeat-last-n", "8", "p"])
    assert "--repeat-last-n" in capsys.readouterr().err


def test_it_is_a_command_line_option_that_reaches_the_request(setting, capsys):
    parser = build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args(["generate", "--help"])
    said = " ".join(capsys.readouterr().out.split())  # argparse wraps the help text
    assert "--repeat-last-n" in said and setting.tooltip in said and "0 to 1048576" in said
    args = parser.parse_args([*ARGS, "--repeat-last-n", "128", "p"])
    assert args.repeat_last_n == 128
    assert generate.request_from_args(args, "none").sampling.repeat_last_n == 128
    default = parser.parse_args([*ARGS, "p"])
    assert generate.request_from_args(default, "none").sampling.repeat_last_n == 64
    with pytest.raises(SystemExit):
        parser.parse_args([*ARGS, "--repeat-last-n", "-1", "p"])
    assert "-1 is outside 0 to 1048576" in capsys.readouterr().err


def test_it_reaches_the_request_from_the_settings(setting):
    gs = GenerationSettings(repeat_last_n=32)
    assert gs.repeat_last_n == 32
    assert generation_request(gs, prompt="x").sampling.repeat_last_n == 32
    assert generation_request(GenerationSettings(), prompt="x").sampling.repeat_last_n == 64
    with pytest.raises(ValueError, match="Repeat window -1 is outside 0 to 1048576"):
        generation_request(GenerationSettings(repeat_last_n=-1), prompt="x")


def test_it_is_saved_and_read_back(setting, tmp_path):
    path = tmp_path / "settings.json"
    settings = Settings()
    assert settings.generation.repeat_last_n == 64
    settings.generation.repeat_last_n = 16
    save_settings(settings, path)
    assert json.loads(path.read_text())["generation"]["repeat_last_n"] == 16
    loaded = load_settings(path)
    assert loaded.generation.repeat_last_n == 16 and loaded.problems == []
    path.write_text(json.dumps({"generation": {"repeat_last_n": -1, "top_k": 7}}))
    loaded = load_settings(path)
    assert (loaded.generation.repeat_last_n, loaded.generation.top_k) == (64, 7)
    assert [str(p) for p in loaded.problems] == [
        "Repeat window -1 in the settings file is outside 0 to 1048576; using 64."]


def test_an_answers_record_keeps_it(setting):
    record = GenerationSettings(repeat_last_n=8).to_dict()
    assert record[REPEAT_LAST_N.name] == 8
    assert GenerationSettings.from_dict(record).repeat_last_n == 8
