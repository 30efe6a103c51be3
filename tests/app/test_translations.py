"""Italian and French beside English: every message in the .ts files is translated, the
committed .qm files are what pyside6-lrelease makes of them, the window follows the chosen
language, and no visible string in app/ bypasses translate()."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "resources" / "translations"
LANGUAGES = ("it", "fr")

# Calls whose string arguments are shown to the user.
SINKS = {
    "setText", "setToolTip", "setPlaceholderText", "setWindowTitle", "addMenu", "addAction",
    "QAction", "QLabel", "QPushButton", "QCheckBox", "QRadioButton", "QGroupBox",
    "QToolButton", "QDockWidget", "QMenu", "setTitle", "addTab", "insertTab", "setTabText",
    "setTabToolTip", "addItem", "insertItem", "setItemText", "setItemData", "addRow",
    "setStatusTip", "setWhatsThis", "showMessage", "setHeaderLabels",
    "setHorizontalHeaderLabels", "setVerticalHeaderLabels", "setLabelText", "setSuffix",
    "setPrefix", "setSpecialValueText", "setFormat", "show_error", "plain_label",
    "information", "warning", "critical", "question", "about", "getOpenFileName",
    "getSaveFileName", "getExistingDirectory", "getText", "getItem", "setInformativeText",
    "setDetailedText", "setCancelButtonText", "addButton", "setAccessibleName", "setHtml",
    "setMarkdown", "setPlainText", "setNameFilter", "setNameFilters", "setLabel",
    "setTextValue", "say", "show_notice", "setTitleText",
    # the app's own helpers that put their text on screen
    "_button", "BarChart", "LineChart", "QTreeWidgetItem", "QListWidgetItem", "set_reason",
    "set_item_enabled", "_say", "_begin", "QMessageBox", "ask", "confirm", "show_message",
    "start", "QProgressDialog", "setPlaceholder", "insertText",
}
# Literal text that is the same in every language (symbols, units, names).
UNTRANSLATED_OK = re.compile(
    r"^(?:[\W\d_]*|Draftlight|GGUF|K|p|q|s|α|β|c|p_min|ms|%|K = \{[^}]*\}|[A-Z][a-z]?\+.?)$")
LOGGERS = {"log", "logger", "logging", "warnings"}  # their words go to the log, in English


def _messages(language: str) -> list[ET.Element]:
    return list(ET.parse(TRANSLATIONS / f"draftlight_{language}.ts").getroot().iter("message"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    untranslated = []
    for message in _messages(language):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        forms = [f.text or "" for f in translation.iter("numerusform")] or [
            translation.text or ""]
        if translation.get("type") in ("unfinished", "vanished", "obsolete") or not all(
                f.strip() for f in forms):
            untranslated.append(source)
    assert not untranslated, f"{len(untranslated)} untranslated in {language}: {untranslated}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_survive_translation(language):
    """A {name} or %n the code fills in is in the translation too."""
    for message in _messages(language):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        for form in [f.text or "" for f in translation.iter("numerusform")] or [
                translation.text or ""]:
            want = sorted(re.findall(r"\{[a-z_0-9]*(?::[^}]*)?\}|%n|%\d", source))
            assert sorted(re.findall(r"\{[a-z_0-9]*(?::[^}]*)?\}|%n|%\d", form)) == want, (
                f"{language}: {source!r} -> {form!r}")


def test_translations_are_up_to_date():
    """The .ts files hold every string of app/ and backend's declarations, and the committed
    .qm files are what pyside6-lrelease makes of them (scripts/update_translations.py)."""
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "update_translations.py"),
                        "--check"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr


def _literal_text(node: ast.AST) -> list[str]:
    """The literal text in an argument: a string, an f-string's literal parts, a
    concatenation's or a conditional's parts, a list's items."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value for v in node.values
                        if isinstance(v, ast.Constant) and isinstance(v.value, str))]
    if isinstance(node, ast.BinOp):
        return _literal_text(node.left) + _literal_text(node.right)
    if isinstance(node, ast.IfExp):
        return _literal_text(node.body) + _literal_text(node.orelse)
    if isinstance(node, ast.List | ast.Tuple):
        return [t for item in node.elts for t in _literal_text(item)]
    return []


def _untranslated_literals(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in SINKS or (isinstance(func, ast.Attribute) and isinstance(
                func.value, ast.Name) and func.value.id in LOGGERS):
            continue
        for arg in [*node.args, *(k.value for k in node.keywords if k.arg in (
                "text", "title", "caption", "filter", "toolTip", "placeholderText"))]:
            for text in _literal_text(arg):
                if not UNTRANSLATED_OK.match(text.strip()):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    return found


def test_visible_strings_go_through_translate():
    """A literal passed to a widget's text, tooltip, title, menu… outside translate() fails:
    a new visible string must be translatable (and then translated, see above)."""
    found = [f for path in sorted((ROOT / "app").rglob("*.py"))
             for f in _untranslated_literals(path)]
    assert not found, "not through translate():\n" + "\n".join(found)


# The window in another language ----------------------------------------------------------

@pytest.fixture
def language(qapp):
    """install(choice): the translators for `choice` on the test's QApplication; English
    (and Qt's default locale) again after the test."""
    from PySide6.QtCore import QLocale

    from app.i18n import install_translators

    yield lambda choice: install_translators(qapp, choice)
    install_translators(qapp, "en")
    QLocale.setDefault(QLocale.c())


def test_the_system_language_is_followed_when_draftlight_has_it():
    from PySide6.QtCore import QLocale

    from app.i18n import resolve_language

    assert resolve_language("system", QLocale("it_IT")) == "it"
    assert resolve_language("system", QLocale("fr_CA")) == "fr"
    assert resolve_language("system", QLocale("de_DE")) == "en"  # no German: English
    assert resolve_language("fr", QLocale("it_IT")) == "fr"  # a choice beats the system
    assert resolve_language("xx") == "en"


def test_the_setting_is_declared_once():
    from backend import settings_schema as schema
    from backend.settings import Settings

    assert schema.OPTIONS["window.language"] is schema.LANGUAGE
    assert schema.LANGUAGE.choices is not None
    assert schema.LANGUAGE.choices() == ("system", "en", "it", "fr")
    assert Settings().window.language == "system"
    assert schema.LANGUAGE.problem("de") is not None


@pytest.mark.parametrize(("choice", "send", "spec_type"), [
    ("it", "Invia", "Tipo di speculazione"),
    ("fr", "Envoyer", "Type de spéculation"),
    ("en", "Send", "Spec type"),
])
def test_translators_translate_the_app_and_backend_words(language, choice, send, spec_type):
    from app.backend_text import option_label
    from app.i18n import translate
    from backend.settings_schema import SPEC_TYPE

    assert language(choice) == choice
    assert translate("Composer", "Send") == send
    assert option_label(SPEC_TYPE) == spec_type  # declared in backend/, translated here


def test_a_window_made_in_italian_speaks_italian(language, make_window):
    from PySide6.QtWidgets import QLabel
    from scripted_engine import ScriptedEngine

    language("it")
    w = make_window(ScriptedEngine())
    assert w.send_button.text() == "Invia"
    assert [a.text() for a in w.menuBar().actions()] == ["&File", "&Visualizza", "&Aiuto"]
    assert w.welcome.view.findChild(QLabel, "welcomeTitle").text() == "Benvenuto in Draftlight"
    assert w.conversation.title == "Nuova chat"
    assert w.legend.toPlainText().startswith("draft accettato (sottolineato)")


def test_view_language_saves_the_choice_for_the_next_start(language, make_window,
                                                          settings_path):
    from scripted_engine import ScriptedEngine

    from backend.settings import load_settings

    language("en")
    w = make_window(ScriptedEngine())
    menu = w.language_menu
    assert menu.actions["system"].isChecked()
    menu.actions["fr"].trigger()
    assert w.settings.window.language == "fr"
    assert "next start" in w.statusBar().currentMessage()
    assert load_settings(settings_path).window.language == "fr"
    assert w.send_button.text() == "Send"  # the running window stays as it is


def test_the_advisor_speaks_the_window_language(language):
    """backend/advisor.py says its sentences as Words: English as text (CLI, bench), and
    translated, values and nested reasons included, in the window."""
    from app.teaching.answer_advice import advice_line, advice_text
    from backend.advisor import VerifyLine, advise_per_step

    # 100 steps of 4 drafts, the first accepted in 15 of them (α₁ = 15%): speculation loses
    accepted = [4 if i < 15 else 0 for i in range(100)]
    advice = advise_per_step([4] * 100, accepted, [1.0] * 100, [10.0] * 100, cost_ratio=0.1,
                             verify_line=VerifyLine(9.0, 1.0))
    assert advice.warning_words is not None and str(advice.warning_words) == advice.warning
    language("en")
    assert advice_line(advice) == f"Advisor: {advice.warning}"
    assert advice_text(advice) == advice.text
    language("it")
    line = advice_line(advice)
    assert line.startswith("Consigliere: La speculazione dovrebbe essere più lenta")
    assert "accettazione bassa (il target accetta il 15%" in line
    assert advice_text(advice).startswith("K migliore = ")


def test_counts_are_grouped_as_the_language_writes_them(language):
    from app.chat.context_budget import ContextUse
    from app.i18n import number

    use = ContextUse(used=1234, exact=True, n_ctx=4096, next_needs=0)
    language("en")
    assert number(4096) == "4,096"
    assert use.words() == "Context: 1,234 of 4,096 tokens"
    language("it")
    assert number(40960) == "40.960"  # and 4096 as it is: Italian groups from five digits
    assert use.words() == "Contesto: 1234 di 4096 token"
    language("fr")
    assert number(4096).replace("\u202f", " ").replace("\xa0", " ") == "4 096"


def test_a_server_report_speaks_the_window_language(language):
    from app.backend_text import backend_text
    from backend.serving.report import SpecReport

    report = SpecReport("vLLM", n_drafted=10, n_accepted=8, n_steps=4, accepted_per_step=(2, 2))
    language("en")
    assert report.words(backend_text) == report.words()  # English: the backend's own words
    language("fr")
    words = report.words(backend_text)
    assert words.startswith("vLLM : ") or words.startswith("vLLM: ")
    assert "proposés 10, acceptés 8, acceptation 80.0 %, 4 étapes de vérification." in words
    assert "Acceptés par étape : 2 2." in words


def test_a_missing_translation_leaves_the_window_in_english(language, monkeypatch, caplog):
    import app.i18n
    from app.i18n import translate

    def missing(name):
        raise FileNotFoundError(f"resource translations/draftlight_{name}.qm is missing")

    monkeypatch.setattr(app.i18n, "translation_path", missing)
    assert language("it") == "en"
    assert translate("MainWindow", "Send") == "Send"
    assert "stays in English" in caplog.text


def test_the_committed_translations_are_found_where_the_wheel_puts_them():
    from app.resources import translation_path

    for language in LANGUAGES:
        assert translation_path(language).stat().st_size > 10_000


def test_an_engine_error_reaches_the_window_in_its_language(language, make_window, qtbot):
    """What backend/ composes at run time (here the engine's refusal of a prompt longer than
    the context, made as engine.py makes it) is shown translated, its numbers filled in."""
    from scripted_engine import ScriptedEngine

    from backend.engine.errors import PROMPT_TOO_LONG, EngineError
    from backend.engine.events import GenerationFailed, GenerationStarted
    from backend.words import words, words_of

    error = EngineError(words(PROMPT_TOO_LONG, n=812, n_ctx=512))
    assert str(error) == "The prompt has 812 tokens, more than the context of 512."
    script = [GenerationStarted(1, "none", 1, 812),
              GenerationFailed(str(error), words=words_of(error))]
    language("it")
    w = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/fake-target.gguf")
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as blocker:
        assert w.send("count")
    widget = blocker.args[0]
    assert widget.answer.error == "The prompt has 812 tokens, more than the context of 512."
    assert widget.error_label.text() == "Il prompt ha 812 token, più del contesto di 512."


def test_backend_errors_and_refusals_speak_the_window_language(language):
    from app.backend_text import error_text, reason_text
    from backend.engine import exit_status
    from backend.models.vocab import VocabInfo, incompatibility
    from backend.traces import TraceError, trace_from_dict

    target = VocabInfo("spm", True, False, 1, 2, ["a"] * 100)
    draft = VocabInfo("spm", False, False, 1, 2, ["a"] * 100)
    reason = incompatibility(target, draft)
    language("fr")
    assert reason_text(reason) == ("Les deux modèles commencent un texte différemment (jeton de "
                                   "début de séquence : cible id 1, brouillon aucun ajouté).")
    assert words_text_of(exit_status.describe_words(-11)) == \
        "llama.cpp a planté (erreur de segmentation)"
    with pytest.raises(TraceError) as caught:
        trace_from_dict({"format": "draftlight-trace", "version": 7})
    assert str(caught.value).startswith("a Draftlight trace of version 7;")
    assert error_text(caught.value) == ("une trace Draftlight de version 7 ; ce Draftlight lit "
                                        "la version 1.")


def words_text_of(said):
    from app.backend_text import words_text
    return words_text(said)


def test_model_file_download_and_server_errors_speak_the_window_language(language, tmp_path):
    """The header reader's, the downloader's and the server client's errors are Words too:
    English as before in `str(exc)`, and in the window translated, the part of the header
    being read (itself Words) and the file's name filled in."""
    import struct

    from app.backend_text import error_text
    from backend.models.inspection import ModelFileError, inspect_model
    from backend.models.transfer import DownloadError, destination
    from backend.serving.client import ServerError, normalize_base_url

    # a GGUF header whose first metadata key claims 100 bytes where 5 are left
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(b"GGUF" + struct.pack("<IQQQ", 3, 0, 1, 100) + b"abcde")
    with pytest.raises(ModelFileError) as broken:
        inspect_model(cut)
    with pytest.raises(DownloadError) as refused:
        destination(tmp_path, "not a repo", "model.gguf")
    with pytest.raises(ServerError) as unaddressed:
        normalize_base_url("  ")
    assert unaddressed.value.kind == "http"
    language("en")
    assert str(broken.value) == error_text(broken.value) == (
        "cut.gguf: The length of the key of metadata entry 1 of 1 is 100 bytes, past the end of "
        "the file: the header is corrupt.")
    assert error_text(refused.value) == "'not a repo' is not a valid repository name."
    language("it")
    assert error_text(broken.value) == (
        "cut.gguf: La lunghezza indicata per la chiave della voce di metadati 1 di 1 è di 100 "
        "byte, oltre la fine del file: l'intestazione è corrotta.")
    assert error_text(refused.value) == "'not a repo' non è un nome di repository valido."
    assert error_text(unaddressed.value) == (
        "Indica l'indirizzo del server, ad es. http://127.0.0.1:8080/v1.")
    assert str(broken.value).startswith("cut.gguf: The length of")  # str(exc) stays English


def test_a_bad_settings_file_is_said_in_the_window_language(language, make_window,
                                                           settings_path):
    import json

    from scripted_engine import ScriptedEngine

    settings_path.write_text(json.dumps({"generation": {"n_draft": 99}}))
    language("it")
    w = make_window(ScriptedEngine())
    said = w.banner.text()
    assert "nel file delle impostazioni" in said and "si usa" in said, said
    settings_path.write_text("[")  # not JSON at all: the defaults, said in Italian too
    w2 = make_window(ScriptedEngine())
    assert "si usano le impostazioni predefinite" in w2.banner.text(), w2.banner.text()
