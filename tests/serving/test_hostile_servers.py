"""Odd and hostile servers (tests/serving/hostile_server.py), met through the server engine the
window and `generate --server` use: keep-alives cannot keep a dead answer alive, a finished
answer is finished, odd numbers never cost the text and are never shown as real, a lone
surrogate is shown as U+FFFD, and each failure is one sentence with the partial answer kept."""

from __future__ import annotations

import json
import math
import re
import threading
import time

import pytest

from backend.cli.main import main
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    StepVerified,
    event_to_dict,
)
from backend.engine.request import GenerationRequest, Message
from backend.serving import client
from backend.serving.client import ServerClient, ServerError
from backend.serving.engine import STREAM_ENDED, ServerEngine
from backend.serving.report import SpecReport
from tests.serving.hostile_server import ODD_STREAMS, TEXT, HostileServer

REQUEST = GenerationRequest(messages=(Message("user", "Say something odd."),), max_tokens=64)
WHOLE = "".join(TEXT)


@pytest.fixture(scope="module")
def hostile():
    with HostileServer() as server:
        yield server


def run(url: str, **limits: float):
    engine = ServerEngine(url, "", **limits)
    try:
        engine.load_target("model", n_ctx=0)
        return list(engine.generate(REQUEST)), engine.last_report
    finally:
        engine.close()


def partial(events) -> str:
    return "".join(t.text for e in events if isinstance(e, StepVerified) for t in e.emitted)


def failed_in_one_sentence(events, template: str) -> GenerationFailed:
    """The last event is one failure, told in one sentence of `template`; nothing after it."""
    failures = [e for e in events if isinstance(e, GenerationFailed)]
    assert failures == [events[-1]], events[-3:]
    failed = failures[0]
    assert failed.words is not None and failed.words.template == template, failed.message
    assert str(failed.words) == failed.message
    text = failed.message
    # a sentence that quotes the server ends with its words
    assert text[0].isupper() and text.count(". ") == 0, text
    assert text.endswith(".") or template == client.HTTP_ERROR, text
    assert "\n" not in text and "\x1b" not in text and "Traceback" not in text
    return failed


def finished(events) -> GenerationFinished:
    last = events[-1]
    assert isinstance(last, GenerationFinished), last
    assert not any(isinstance(e, GenerationFailed) for e in events)
    return last


# 1. Time limits that keep-alives cannot extend ------------------------------------------

def test_keepalive_comments_do_not_keep_a_dead_answer_alive(hostile):
    # The server sends ": keep-alive" every 50 ms for 30 s: with the idle limit counting
    # only data events, the answer is given up after 0.5 s of no new part.
    events, _ = run(hostile.url("keepalive"), read_timeout_s=0.5, total_timeout_s=60)
    failed = failed_in_one_sentence(events, client.NOTHING_NEW)
    assert "sent no part of the answer for 0.5 s" in failed.message
    assert partial(events) == "".join(TEXT[:3])


def test_events_that_carry_nothing_meet_the_total_limit(hostile):
    events, _ = run(hostile.url("empty-events"), read_timeout_s=0.5, total_timeout_s=1.5)
    failed = failed_in_one_sentence(events, client.TOO_LONG)
    assert "still not finished after 1.5 s" in failed.message
    assert partial(events) == "".join(TEXT[:3])


def test_headers_dripped_a_byte_at_a_time_meet_the_idle_limit(hostile):
    events, _ = run(hostile.url("drip-headers"), read_timeout_s=0.5, total_timeout_s=60)
    failed_in_one_sentence(events, client.NOTHING_NEW)
    assert partial(events) == ""


def test_a_model_list_dripped_forever_meets_the_limit(hostile):
    engine = ServerEngine(hostile.url("drip-models"), "", read_timeout_s=0.5)
    try:
        with pytest.raises(ServerError) as err:
            engine.load_target("model", n_ctx=0)
    finally:
        engine.close()
    assert err.value.kind == "timeout" and "went silent for 0.5 s" in str(err.value)


def test_stop_ends_a_request_whose_headers_never_finish(hostile):
    engine = ServerEngine(hostile.url("drip-headers"), "", read_timeout_s=3600)
    served = hostile.served.get("drip-headers", 0)

    def stop_once_asked() -> None:
        while hostile.served.get("drip-headers", 0) == served:
            time.sleep(0.01)
        time.sleep(0.1)
        engine.cancel()

    stopper = threading.Thread(target=stop_once_asked)
    try:
        engine.load_target("model", n_ctx=0)
        stopper.start()
        events = list(engine.generate(REQUEST))
    finally:
        stopper.join()
        engine.close()
    assert finished(events).stop_reason == "cancelled"


# 2. A finished answer is finished ---------------------------------------------------------

@pytest.mark.parametrize("kind", ["finish-silent", "finish-keepalive"])
def test_a_finished_answer_then_silence_is_complete(hostile, kind):
    # An idle limit of an hour: only the end of the answer can end this test in time.
    events, _ = run(hostile.url(kind), read_timeout_s=3600, total_timeout_s=3600,
                    finish_grace_s=0.2)
    done = finished(events)
    assert done.text == WHOLE and done.stop_reason == "eos"
    if kind == "finish-silent":  # the usage sent right after the finish is kept
        assert (done.stats.n_prompt, done.stats.n_generated) == (12, 6)


# 3. Odd numbers never discard a finished answer, and are never shown as real -------------

def _shown_numbers_are_possible(done: GenerationFinished, report: SpecReport) -> None:
    s = done.stats
    json.dumps(event_to_dict(done), allow_nan=False)  # storable and exportable as it is
    json.dumps(report.to_dict(), allow_nan=False)
    for value in (s.prompt_ms, s.generation_ms, s.ttft_ms, s.tokens_per_second):
        assert math.isfinite(value) and value >= 0
    assert 0 <= s.n_accepted <= s.n_drafted <= 10**9 and s.n_generated <= 10**9
    assert s.n_cached <= s.n_prompt
    assert report.acceptance_rate is None or 0 <= report.acceptance_rate <= 1
    assert re.search(r"\b(nan|inf|infinity)\b|e\+|\d{12}", report.words().lower()) is None


@pytest.mark.parametrize("kind", sorted(ODD_STREAMS))
def test_odd_numbers_keep_the_finished_answer(hostile, kind):
    events, report = run(hostile.url(kind))
    done = finished(events)
    assert done.text == WHOLE and partial(events) == WHOLE
    _shown_numbers_are_possible(done, report)


def test_impossible_numbers_are_dropped_not_shown(hostile):
    _, report = run(hostile.url("acceptance-2500"))  # 100 of 4 drafts accepted
    assert (report.n_drafted, report.n_accepted) == (None, None)
    assert "2500" not in report.words()
    _, report = run(hostile.url("counts-disagree"))  # 30 accepted of 6 tokens generated
    assert (report.n_drafted, report.n_accepted) == (None, None)
    events, _ = run(hostile.url("negative-timings"))
    assert finished(events).stats.prompt_ms >= 0
    events, report = run(hostile.url("predicted-400-digits"))
    assert finished(events).stats.n_generated == 6  # the usage's count, not 10^400
    assert (report.n_drafted, report.n_accepted) == (8, 4)  # the sane values beside it stay
    events, _ = run(hostile.url("cached-over-prompt"))
    assert finished(events).stats.n_cached == 0
    _, report = run(hostile.url("vllm-steps-disagree"))  # 9 accepted of 3 drafted in a step
    assert report.accepted_per_step == () and not report.has_numbers


def test_a_finish_reason_that_is_an_object_still_ends_the_answer(hostile):
    events, _ = run(hostile.url("finish-object"))
    assert finished(events).stop_reason == "eos"


def test_a_report_never_holds_an_impossible_number():
    assert not SpecReport("x", n_drafted=4, n_accepted=100).has_numbers
    assert SpecReport("x", n_drafted=-1, n_accepted=2).n_drafted is None
    assert SpecReport("x", n_steps=10**400).n_steps is None
    odd = SpecReport("x", 6, 3, 2, accepted_per_step=(3, 0), drafted_per_step=(2, 4))
    assert odd.accepted_per_step == odd.drafted_per_step == ()
    kept = SpecReport("x", 6, 3, 2, accepted_per_step=(2, 1), drafted_per_step=(3, 3))
    assert kept.accepted_per_step == (2, 1)


def test_odd_metrics_pages_give_no_numbers(hostile):
    events, report = run(hostile.url("metrics-odd"))
    assert finished(events).text == WHOLE and not report.has_numbers


# 4. Lone surrogates -----------------------------------------------------------------------

def test_a_lone_surrogate_is_shown_as_a_replacement_mark(hostile):
    events, _ = run(hostile.url("surrogate"))
    done = finished(events)
    assert done.text == "Half \ufffd a smile \U0001f600 joined and \ufffd" == partial(events)
    done.text.encode("utf-8")  # savable and printable


def test_a_lone_surrogate_at_a_cut_is_kept_as_a_replacement_mark(hostile):
    events, _ = run(hostile.url("surrogate-cut"))
    failed_in_one_sentence(events, STREAM_ENDED)
    assert partial(events) == "Cut \ufffd"


def test_model_ids_are_readable(hostile):
    listing = ServerClient(hostile.url("surrogate"))
    try:
        assert listing.list_models() == ["model", "odd\ufffdmodel"]
    finally:
        listing.close()


def test_generate_json_streams_a_surrogate_to_the_end(hostile, capsys):
    status = main(["generate", "--server", hostile.url("surrogate"), "--model", "model",
                   "--json", "Say something odd."])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    assert [line["event"] for line in lines][-2:] == ["finished", "server_report"]
    assert lines[-2]["text"] == "Half \ufffd a smile \U0001f600 joined and \ufffd"


# 5. Failures in words, the partial answer kept ---------------------------------------------

def test_a_10_mb_event_is_said_to_be_too_large(hostile):
    events, _ = run(hostile.url("huge-event"))
    failed = failed_in_one_sentence(events, client.EVENT_TOO_LARGE)
    assert "larger than 4 MB" in failed.message and "closed the connection" not in failed.message
    assert partial(events) == "".join(TEXT[:2])


def test_a_redirect_names_where_it_leads(hostile):
    engine = ServerEngine(hostile.url("redirect"), "")
    try:
        with pytest.raises(ServerError) as err:
            engine.load_target("model", n_ctx=0)
    finally:
        engine.close()
    where = f"{hostile.root}/elsewhere/v1/models"
    assert str(err.value) == (f"The server at {hostile.url('redirect')} redirected to {where}, "
                              "and Draftlight does not follow redirects: give the final "
                              "address instead.")
    events, _ = run(hostile.url("redirect-chat"))
    failed = failed_in_one_sentence(events, client.REDIRECTED)
    assert f"redirected to {hostile.root}/elsewhere/v1/chat/completions" in failed.message
    events, _ = run(hostile.url("redirect-nowhere"))
    assert "(HTTP 307) without saying where" in failed_in_one_sentence(
        events, client.REDIRECTED_NOWHERE).message


def test_a_redirect_through_the_command_is_one_line(hostile, capsys):
    status = main(["generate", "--server", hostile.url("redirect-chat"), "--model", "model",
                   "Say something odd."])
    err = capsys.readouterr().err
    assert status != 0 and "does not follow redirects" in err and "HTTP 302: " not in err


def test_an_error_without_a_body_says_so(hostile):
    events, _ = run(hostile.url("http-empty"))
    failed = failed_in_one_sentence(events, client.HTTP_ERROR_BARE)
    assert failed.message == ("The server answered HTTP 500 (Internal Server Error) without "
                              "saying why.")


def test_an_error_body_is_quoted_on_one_readable_line(hostile):
    events, _ = run(hostile.url("error-multiline"))
    failed = failed_in_one_sentence(events, client.HTTP_ERROR)
    assert failed.message == "The server answered HTTP 503: busy at line 3: [31m x\ufffd"


@pytest.mark.parametrize(("kind", "template"), [("huge-models", client.BODY_TOO_LARGE),
                                                ("deep-models", client.NOT_A_MODEL_LIST)])
def test_an_odd_model_list_is_one_sentence(hostile, kind, template):
    listing = ServerClient(hostile.url(kind))
    try:
        with pytest.raises(ServerError) as err:
            listing.list_models()
    finally:
        listing.close()
    assert err.value.args[0].template == template
