"""docker-compose.yml: valid for the Compose CLI, Kafka in KRaft mode, topics, replicas, wiring."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bus import topics
from gateway.auth import KeyRing, Unauthorized, add_key, check_exposure
from gateway.errors import ConfigError
from gateway.settings import GatewaySettings
from tests.deploy.conftest import COMPOSE, COMPOSE_ENV, REPO, compose_config, duration_s, run, venv_tool
from workers.settings import WorkerSettings


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """The file as the Compose CLI resolves it (anchors merged, defaults filled in)."""
    return compose_config()


def test_compose_cli_validates_the_file() -> None:
    proc = run([venv_tool("docker-compose"), "--file", COMPOSE, "config", "--quiet"], env=COMPOSE_ENV)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_compose_cli_rejects_a_misspelled_key(tmp_path: Path) -> None:
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(COMPOSE.read_text().replace("stop_grace_period:", "stop_grace_periods:"))
    proc = run([venv_tool("docker-compose"), "--file", broken, "config", "--quiet"], env=COMPOSE_ENV)
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
    assert [(p["host_ip"], p["target"], p["published"]) for p in gateway["ports"]] == [("127.0.0.1", 8080, "8080")]
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


def test_every_published_port_is_bound_to_the_hosts_loopback(compose: dict[str, Any]) -> None:
    published = {
        name: [(p.get("host_ip"), p["published"]) for p in svc.get("ports", [])]
        for name, svc in compose["services"].items()
        if svc.get("ports")
    }
    assert published == {
        "kafka": [("127.0.0.1", "29092")],
        "gateway": [("127.0.0.1", "8080")],
        "prometheus": [("127.0.0.1", "9090")],
        "grafana": [("127.0.0.1", "3000")],
    }
    kafka = compose["services"]["kafka"]["environment"]
    assert _listeners(kafka["KAFKA_ADVERTISED_LISTENERS"])["EXTERNAL"] == "localhost:29092"
    for service in ("redis", "worker", "kafka-init"):
        assert "ports" not in compose["services"][service]


def test_compose_refuses_to_start_grafana_without_a_password() -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRAFANA_ADMIN_PASSWORD"}
    proc = subprocess.run(
        [str(venv_tool("docker-compose")), "--file", str(COMPOSE), "config", "--quiet"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "required variable GRAFANA_ADMIN_PASSWORD is missing a value" in proc.stderr


def test_grafana_takes_the_callers_password_and_no_anonymous_viewers(compose: dict[str, Any]) -> None:
    env = compose["services"]["grafana"]["environment"]
    assert env["GF_SECURITY_ADMIN_PASSWORD"] == COMPOSE_ENV["GRAFANA_ADMIN_PASSWORD"]
    assert env["GF_AUTH_ANONYMOUS_ENABLED"] == "false"
    assert "GF_AUTH_ANONYMOUS_ORG_ROLE" not in env
    assert env["GF_USERS_ALLOW_SIGN_UP"] == "false"
    assert "admin}" not in COMPOSE.read_text(), "no fallback password in the file"


def test_worker_metrics_listen_on_the_compose_network_only_where_set(compose: dict[str, Any]) -> None:
    """A worker started by hand keeps its metrics on loopback; compose opens them to Prometheus's network."""
    assert WorkerSettings.model_fields["metrics_host"].default == "127.0.0.1"
    worker = compose["services"]["worker"]
    assert worker["environment"]["FACTSENTRY_METRICS_HOST"] == "0.0.0.0"
    assert "ports" not in worker


# As the image sets it (Dockerfile): the container's gateway listens on every interface of the container.
IMAGE_ENV = {"FACTSENTRY_HOST": "0.0.0.0"}


def _gateway_settings(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> GatewaySettings:
    for key in list(os.environ):
        if key.startswith("FACTSENTRY_"):
            monkeypatch.delenv(key)
    for key, value in {**IMAGE_ENV, **env}.items():
        monkeypatch.setenv(key, value)
    return GatewaySettings()


def test_the_gateway_starts_in_its_container_only_through_the_explicit_opt_out(
    compose: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {k: str(v) for k, v in compose["services"]["gateway"]["environment"].items() if v is not None}
    settings = _gateway_settings(env, monkeypatch)
    assert (settings.host, settings.keys_file, settings.allow_unauthenticated) == ("0.0.0.0", None, True)
    check_exposure(settings.host, settings.keys_file, settings.allow_unauthenticated)
    without = {k: v for k, v in env.items() if k != "FACTSENTRY_ALLOW_UNAUTHENTICATED"}
    settings = _gateway_settings(without, monkeypatch)
    with pytest.raises(ConfigError, match=r"refusing to listen on 0\.0\.0\.0 without API keys"):
        check_exposure(settings.host, settings.keys_file, settings.allow_unauthenticated)


def _documented_override() -> str:
    """The docker-compose.override.yml that the gateway's comment spells out, uncommented."""
    lines = COMPOSE.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "#   services:")
    block = []
    for line in lines[start:]:
        if not line.lstrip().startswith("#   "):
            break
        block.append(line.split("#", 1)[1][1:])
    return "\n".join(block) + "\n"


def test_the_documented_override_turns_api_keys_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    override = tmp_path / "docker-compose.override.yml"
    override.write_text(_documented_override())
    proc = run(
        [venv_tool("docker-compose"), "--file", COMPOSE, "--file", override, "config", "--format", "json"],
        env=COMPOSE_ENV,
    )
    assert proc.returncode == 0, proc.stderr
    gateway = json.loads(proc.stdout)["services"]["gateway"]
    mounts = {v["target"]: v for v in gateway["volumes"]}
    assert mounts["/etc/factsentry/keys.yaml"]["read_only"] is True
    env = {k: str(v) for k, v in gateway["environment"].items() if v is not None}
    assert env["FACTSENTRY_KEYS_FILE"] == "/etc/factsentry/keys.yaml"
    # The gateway in that container: keys from the mounted file, API keys enforced despite the opt-out.
    keys = tmp_path / "keys.yaml"
    secret, _ = add_key(keys, "team-a")
    env["FACTSENTRY_KEYS_FILE"] = str(keys)
    settings = _gateway_settings(env, monkeypatch)
    check_exposure(settings.host, settings.keys_file, settings.allow_unauthenticated)
    ring = KeyRing(settings.keys_file)
    assert ring.enabled and len(ring) == 1
    assert ring.authenticate({"authorization": f"Bearer {secret}"}) is not None
    with pytest.raises(Unauthorized):
        ring.authenticate({})
    assert (settings.metrics_host, settings.metrics_port) == ("0.0.0.0", 0)  # the image adds the port
