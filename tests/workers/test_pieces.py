"""Pure pieces of the worker: settings validation, stage lookup, retry classes, the question of an answer."""

from __future__ import annotations

import aiokafka.errors
import pytest
import redis.exceptions
from pydantic import ValidationError

from schemas.messages import GenerationMessage
from tests.workers.helpers import generation
from workers.errors import RetriableError, SettingsError, StageNotFound, WorkerError, is_retriable
from workers.runner import Summary, describe
from workers.scoring_stage import question_of
from workers.settings import load_settings
from workers.stage import load_stage


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"FACTSENTRY_BATCH_SIZE": "0"}, "FACTSENTRY_BATCH_SIZE='0': Input should be greater than or equal to 1"),
        ({"FACTSENTRY_CONCURRENCY": "many"}, "FACTSENTRY_CONCURRENCY='many': Input should be a valid integer"),
        ({"FACTSENTRY_METRICS_PORT": "70000"}, "FACTSENTRY_METRICS_PORT='70000': Input should be less than or equal"),
        ({"FACTSENTRY_EXECUTOR": "gpu"}, "FACTSENTRY_EXECUTOR='gpu': Input should be 'thread' or 'process'"),
        (
            {"FACTSENTRY_KB_PATH": "/no/such/kb.sqlite3"},
            "FACTSENTRY_KB_PATH='/no/such/kb.sqlite3': Value error, no know",
        ),
        ({"FACTSENTRY_GROUP_ID": "  "}, "FACTSENTRY_GROUP_ID='  ': Value error, must not be blank"),
    ],
)
def test_bad_setting_names_the_variable_and_the_value(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert expected in str(info.value)


@pytest.mark.parametrize(
    ("overrides", "field", "value"),
    [
        ({"concurrency": 8}, "concurrency", 8),
        ({"group_id": "blue", "concurrency": None}, "group_id", "blue"),
        ({}, "metrics_port", 9464),
        ({}, "stage", "scoring"),
    ],
)
def test_flags_override_the_environment(
    monkeypatch: pytest.MonkeyPatch, overrides: dict[str, object], field: str, value: object
) -> None:
    monkeypatch.setenv("FACTSENTRY_CONCURRENCY", "3")
    monkeypatch.setenv("FACTSENTRY_GROUP_ID", "green")
    settings = load_settings(**overrides)
    assert getattr(settings, field) == value


@pytest.mark.parametrize(("attempt", "delay"), [(1, 0.5), (2, 1.0), (3, 2.0), (5, 8.0), (6, 10.0), (20, 10.0)])
def test_retry_delay_doubles_up_to_the_cap(attempt: int, delay: float) -> None:
    assert load_settings(backoff_s=0.5, backoff_max_s=10.0).retry_delay(attempt) == delay


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope", "unknown stage 'nope': use one of scoring or module:attr"),
        ("no_such_module_xyz:stage", "cannot import 'no_such_module_xyz'"),
        ("tests.workers.stages:missing", "has no attribute 'missing'"),
        ("tests.workers.stages:WordCount", "'WordCount' is neither a Stage nor a function returning one"),
    ],
)
def test_unknown_stage_is_a_one_line_error(spec: str, message: str) -> None:
    with pytest.raises(StageNotFound) as info:
        load_stage(spec, load_settings())
    assert message in str(info.value)


def test_stage_by_import_path_uses_the_settings_topics() -> None:
    stage = load_stage("tests.workers.stages:word_count", load_settings(generations_topic="in", results_topic="out"))
    assert (stage.name, stage.input_topic, stage.output_topic) == ("word-count", "in", "out")


@pytest.mark.parametrize(
    ("exc", "retriable"),
    [
        (RetriableError("x"), True),
        (WorkerError("x"), False),
        (aiokafka.errors.KafkaTimeoutError(), True),
        (aiokafka.errors.RequestTimedOutError(), True),
        (aiokafka.errors.UnknownError(), True),
        (aiokafka.errors.MessageSizeTooLargeError(), False),
        (redis.exceptions.ConnectionError("down"), True),
        (redis.exceptions.ResponseError("WRONGTYPE"), False),
        (ConnectionResetError(), True),
        (TimeoutError(), True),
        (ValueError("bad"), False),
    ],
)
def test_retriable_errors(exc: BaseException, retriable: bool) -> None:
    assert is_retriable(exc) is retriable


def test_validation_errors_are_described_on_one_line() -> None:
    with pytest.raises(ValidationError) as info:
        GenerationMessage.model_validate_json(b'{"schema_version": 2, "request_id": ""}')
    text = describe(info.value)
    assert "\n" not in text
    assert text.startswith("invalid GenerationMessage: schema_version: Input should be 1; request_id: String should")


@pytest.mark.parametrize(
    ("fields", "question"),
    [
        ({"question": "Who is Dick Hanley?"}, "Who is Dick Hanley?"),
        ({"messages": [{"role": "user", "content": "Tell me about Joseph F. Smith"}]}, "Tell me about Joseph F. Smith"),
        (
            {
                "messages": [
                    {"role": "system", "content": "be brief"},
                    {"role": "user", "content": "first"},
                    {"role": "assistant", "content": "ok"},
                    {"role": "user", "content": "second"},
                ]
            },
            "second",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "Who"}, {"type": "text", "text": "is he?"}]}
                ]
            },
            "Who is he?",
        ),
        ({"messages": [{"role": "system", "content": "be brief"}]}, None),
        ({"question": "Q", "messages": [{"role": "user", "content": "other"}]}, "Q"),
    ],
)
def test_question_falls_back_to_the_last_user_message(fields: dict[str, object], question: str | None) -> None:
    assert question_of(generation("r", "answer", **fields)) == question


def test_summary_line_reads_like_arq() -> None:
    summary = Summary(reason="SIGTERM", done=120, dlq=2, failed=0, retried=3)
    assert summary.line() == "shutdown on SIGTERM ◆ 120 done ◆ 2 dlq ◆ 0 failed ◆ 3 retries"


def test_the_workers_rules_off_reach_every_checker_as_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """FACTSENTRY_RULES_OFF is read by the worker's settings and passed to the checkers; scoring/ reads no
    environment. An unknown name stops the worker with the variable named."""
    from workers.errors import ScoringUnavailable
    from workers.scoring_stage import EngineOptions, build_checkers

    monkeypatch.setenv("FACTSENTRY_RULES_OFF", "decline, stated-outright")
    options = EngineOptions.of(load_settings())
    assert options.rules_off == {"decline", "stated-outright"}
    checker = build_checkers(options)["offline"]
    assert checker.config.rules_off == {"decline", "stated-outright"}
    assert checker.config.verify.rules_off == {"decline", "stated-outright"}
    monkeypatch.setenv("FACTSENTRY_RULES_OFF", "declin")
    with pytest.raises(ScoringUnavailable, match="FACTSENTRY_RULES_OFF: unknown rule 'declin'; did you mean 'decline'"):
        build_checkers(EngineOptions.of(load_settings()))
