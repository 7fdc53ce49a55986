"""docker-compose.yml: valid for the Compose CLI, Kafka in KRaft mode, topics, replicas, wiring."""

from __future__ import annotations

import base64
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bus import topics
from gateway.settings import GatewaySettings
from tests.deploy.conftest import REPO, duration_s, run, venv_tool
from workers.settings import WorkerSettings

COMPOSE = REPO / "docker-compose.yml"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """The file as the Compose CLI resolves it (anchors merged, defaults filled in)."""
    proc = run([venv_tool("docker-compose"), "--file", COMPOSE, "config", "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_compose_cli_validates_the_file() -> None:
    proc = run([venv_tool("docker-compose"), "--file", COMPOSE, "config", "--quiet"])
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_compose_cli_rejects_a_misspelled_key(tmp_path: Path) -> None:
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(COMPOSE.read_text().replace("stop_grace_period:", "stop_grace_periods:"))
    proc = run([venv_tool("docker-compose"), "--file", broken, "config", "--quiet"])
    assert proc.returncode != 0
    assert "stop_grace_periods" in proc.stderr


def _listeners(value: str) -> dict[str, str]:
    """``NAME://host:port,...`` as name -> host:port."""
    return dict(item.split("://", 1) for item in value.split(","))


def test_kafka_runs_in_kraft_mode_without_zookeeper(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert not [name for name, svc in services.items() if "zookeeper" in (svc.get("image", "") + name).lower()]
    kafka = services["kafka"]
    env = kafka["environment"]
    assert kafka["image"].startswith("apache/kafka:")
    assert not [key for key in env if "ZOOKEEPER" in key]
    assert set(env["KAFKA_PROCESS_ROLES"].split(",")) == {"broker", "controller"}
    assert len(base64.urlsafe_b64decode(env["CLUSTER_ID"] + "==")) == 16, "CLUSTER_ID must be a base64 UUID"
    listeners = _listeners(env["KAFKA_LISTENERS"])
    advertised = _listeners(env["KAFKA_ADVERTISED_LISTENERS"])
    protocols = dict(item.split(":") for item in env["KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"].split(","))
    assert set(advertised) <= set(listeners) <= set(protocols)
    assert env["KAFKA_CONTROLLER_LISTENER_NAMES"] in listeners
    assert env["KAFKA_CONTROLLER_LISTENER_NAMES"] not in advertised
    node, voter = env["KAFKA_CONTROLLER_QUORUM_VOTERS"].split("@")
    assert node == env["KAFKA_NODE_ID"]
    assert voter.rsplit(":", 1)[1] == listeners[env["KAFKA_CONTROLLER_LISTENER_NAMES"]].rsplit(":", 1)[1]
    assert env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"
    for service in ("gateway", "worker"):
        assert services[service]["environment"]["FACTSENTRY_KAFKA_BOOTSTRAP"] == advertised["PLAINTEXT"]


def _init_script(compose: dict[str, Any]) -> str:
    # The Compose CLI keeps `$$` escapes in its output; the container's shell sees `$`.
    return str(compose["services"]["kafka-init"]["command"][0]).replace("$$", "$")


def test_topic_init_creates_the_bus_topics_with_enough_partitions(compose: dict[str, Any]) -> None:
    script = _init_script(compose)
    assert subprocess.run(["bash", "-n", "-c", script], capture_output=True, check=False).returncode == 0
    created = {m[0]: int(m[1]) for m in re.findall(r"^create (\S+) (\d+) \d+$", script, flags=re.MULTILINE)}
    assert set(created) == {topics.GENERATIONS, topics.RESULTS, topics.GENERATIONS_DLQ}
    replicas = compose["services"]["worker"]["deploy"]["replicas"]
    assert created[topics.GENERATIONS] >= 4 * replicas, "leave room to scale the workers"
    assert compose["services"]["worker"]["environment"]["FACTSENTRY_TOPIC_PARTITIONS"] == str(
        created[topics.GENERATIONS]
    )
    assert "--if-not-exists" in script
    assert compose["services"]["kafka-init"]["restart"] == "no"


@pytest.mark.parametrize(
    ("service", "needs"),
    [
        ("gateway", {"kafka-init": "service_completed_successfully", "redis": "service_healthy"}),
        ("worker", {"kafka-init": "service_completed_successfully", "redis": "service_healthy"}),
        ("kafka-init", {"kafka": "service_healthy"}),
        ("prometheus", {"gateway": "service_started", "worker": "service_started"}),
        ("grafana", {"prometheus": "service_started"}),
    ],
)
def test_start_order(compose: dict[str, Any], service: str, needs: dict[str, str]) -> None:
    depends = compose["services"][service]["depends_on"]
    assert {name: dep["condition"] for name, dep in depends.items()} == needs
    for name, condition in needs.items():
        if condition == "service_healthy":
            assert compose["services"][name]["healthcheck"]["test"]


def test_two_workers_that_get_time_to_drain_on_stop(compose: dict[str, Any]) -> None:
    worker = compose["services"]["worker"]
    assert worker["deploy"]["replicas"] == 2
    assert worker["command"] == ["worker"]
    assert "ports" not in worker, "replicas cannot share a published port"
    drain = float(worker["environment"]["FACTSENTRY_DRAIN_TIMEOUT_S"])
    assert duration_s(worker["stop_grace_period"]) > drain
    metrics_port = worker["environment"]["FACTSENTRY_METRICS_PORT"]
    assert worker["environment"]["HEALTHCHECK_URL"] == f"http://127.0.0.1:{metrics_port}/metrics"


@pytest.mark.parametrize(
    ("service", "settings_cls"),
    [("gateway", GatewaySettings), ("worker", WorkerSettings)],
)
def test_every_factsentry_variable_is_read_by_its_process(
    compose: dict[str, Any], service: str, settings_cls: type[Any]
) -> None:
    env = compose["services"][service]["environment"]
    fields = {f"FACTSENTRY_{name.upper()}" for name in settings_cls.model_fields}
    ours = {k for k in env if k.startswith("FACTSENTRY_")}
    assert ours <= fields, f"{sorted(ours - fields)} are read by nothing"


def test_bind_mounts_exist_and_monitoring_is_wired(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            if volume["type"] == "bind":
                assert Path(volume["source"]).exists(), f"{name} mounts a missing {volume['source']}"
    prometheus = compose["services"]["prometheus"]
    targets = {v["target"]: Path(v["source"]) for v in prometheus["volumes"] if v["type"] == "bind"}
    assert targets["/etc/prometheus"] == REPO / "deploy" / "prometheus"
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    gateway = compose["services"]["gateway"]
    assert [(p["target"], p["published"]) for p in gateway["ports"]] == [(8080, "8080")]
    grafana = compose["services"]["grafana"]
    dashboards = {v["target"]: Path(v["source"]) for v in grafana["volumes"] if v["type"] == "bind"}
    assert dashboards["/var/lib/grafana/dashboards/factsentry.json"] == REPO / "deploy" / "grafana" / "factsentry.json"


def test_api_keys_come_from_the_callers_environment_only() -> None:
    raw = COMPOSE.read_text()
    assert re.findall(r"(\w+_API_KEY): (\S+)", raw) == [
        ("OPENAI_API_KEY", "${OPENAI_API_KEY:-}"),
        ("ANTHROPIC_API_KEY", "${ANTHROPIC_API_KEY:-}"),
    ]
    assert "sk-" not in raw
