"""A settings file made to hurt (nesting past the parser's depth, megabytes, a FIFO) never
stops the app from starting: loading gives the defaults and says why in one sentence."""

from __future__ import annotations

import json
import os
import threading

import pytest

from backend.settings import MAX_SETTINGS_BYTES, Settings, load_settings


def one_sentence(problems: list[str], *needles: str) -> None:
    assert len(problems) == 1, problems
    (said,) = map(str, problems)
    assert said.endswith(".") and said.count(". ") == 0, said
    assert "Error" not in said and "recursion" not in said, said  # no Python words
    for needle in needles:
        assert needle in said, said


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' * 50_000,
                                  '{"a": ' + "[" * 20_000 + "]" * 20_000 + "}"])
def test_nesting_past_the_parser_gives_the_defaults_and_says_so(tmp_path, text):
    path = tmp_path / "settings.json"
    path.write_text(text)
    loaded = load_settings(path)
    assert loaded == Settings()
    one_sentence(loaded.problems, str(path), "nests its brackets too deeply")


def test_a_deep_or_huge_value_is_quoted_short_and_the_rest_is_kept(tmp_path):
    path = tmp_path / "settings.json"
    deep = "[" * 900 + "]" * 900  # within the parser's depth: a value of the wrong type
    path.write_text('{"generation": {"temperature": ' + deep + ', "top_k": 7, '
                    '"spec_type": ' + json.dumps("x" * 200_000) + "}}")
    loaded = load_settings(path)
    assert loaded.generation.top_k == 7  # the good value stays
    assert loaded.generation.temperature == Settings().generation.temperature
    assert loaded.generation.spec_type == Settings().generation.spec_type
    assert len(loaded.problems) == 2
    assert all(len(str(p)) < 400 for p in loaded.problems), loaded.problems


def test_a_file_larger_than_any_settings_is_not_read(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"window": {"geometry": "x" * MAX_SETTINGS_BYTES}}))
    loaded = load_settings(path)
    assert loaded == Settings()
    one_sentence(loaded.problems, str(path), "larger than")


def test_a_fifo_or_a_folder_in_its_place_does_not_block_the_start(tmp_path):
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    result: list[Settings] = []
    reader = threading.Thread(target=lambda: result.append(load_settings(fifo)), daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # unblock the reader so the test run can end
        with open(fifo, "w"):
            pass
        pytest.fail("loading the settings waited on a FIFO")
    one_sentence(result[0].problems, str(fifo), "not a regular file")
    folder = tmp_path / "folder"
    folder.mkdir()
    one_sentence(load_settings(folder).problems, str(folder), "not a regular file")
