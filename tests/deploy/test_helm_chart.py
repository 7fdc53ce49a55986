"""The helm chart: helm 4 lint and template, Kubernetes schema validation, and what the manifests mean."""

from __future__ import annotations

import collections
import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from cloudcoil.models.prometheus_operator import v1 as monitoring

from bus import topics
from bus.tracing import exporter_names
from gateway.auth import check_exposure
from gateway.policy import PolicySpec, PolicyTable
from gateway.settings import GatewaySettings
from schemas.enums import Policy
from tests.deploy.conftest import CHART, REPO, Renderer, by_kind, container, env_of, one, run
from workers.settings import WorkerSettings

# The chart renders only once an auth choice is made; "keys" is the default values plus API keys.
KEYS: dict[str, Any] = {"auth": {"existingSecret": "factsentry-gateway-keys"}}
ALL_ON: dict[str, Any] = {
    "auth": {"existingSecret": "factsentry-gateway-keys", "metricsTokenSecret": "factsentry-metrics-token"},
    "networkPolicy": {
        "gatewayFrom": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}}]
    },
    "gateway": {"autoscaling": {"enabled": True}},
    "metrics": {
        "serviceMonitor": {"enabled": True, "labels": {"release": "kube-prom"}},
        "prometheusRule": {"enabled": True},
    },
    "topics": {"create": True},
    "knowledge": {"existingClaim": "factsentry-kb", "file": "wiki.sqlite3"},
    "redis": {"existingSecret": "factsentry-redis"},
}
MINIMAL: dict[str, Any] = {
    "auth": {"allowUnauthenticated": True},
    "networkPolicy": {"enabled": False},
    "serviceAccount": {"create": False},
    "gateway": {"podDisruptionBudget": {"enabled": False}},
    "worker": {"podDisruptionBudget": {"enabled": False}},
    "apiKeys": {"existingSecret": ""},
    "metrics": {"podAnnotations": False},
}
VALUE_SETS = {"keys": KEYS, "all-on": ALL_ON, "minimal": MINIMAL}
KINDS = {
    "keys": {
        "Deployment": 2,
        "Service": 3,
        "ConfigMap": 1,
        "ServiceAccount": 1,
        "PodDisruptionBudget": 2,
        "NetworkPolicy": 2,
    },
    "all-on": {
        "Deployment": 2,
        "Service": 3,
        "NetworkPolicy": 2,
        "ConfigMap": 1,
        "ServiceAccount": 1,
        "PodDisruptionBudget": 2,
        "HorizontalPodAutoscaler": 1,
        "ServiceMonitor": 2,
        "PrometheusRule": 1,
        "Job": 1,
    },
    "minimal": {"Deployment": 2, "Service": 3, "ConfigMap": 1},
}
CRDS = {"ServiceMonitor": monitoring.ServiceMonitor, "PrometheusRule": monitoring.PrometheusRule}


@pytest.fixture
def render(render: Renderer) -> Renderer:
    """The session renderer, with :data:`KEYS` as the auth choice of values that make none."""

    def _render(values: dict[str, Any] | None = None, release: str = "fs") -> list[dict[str, Any]]:
        values = values or {}
        return render(values if "auth" in values else {**KEYS, **values}, release)

    return _render


def _values_file(tmp_path: Path, values: dict[str, Any]) -> Path:
    path = tmp_path / "values.yaml"
    path.write_text(yaml.safe_dump(values))
    return path


@pytest.mark.parametrize("name", VALUE_SETS)
def test_helm_lint_strict_passes(helm: Path, tmp_path: Path, name: str) -> None:
    proc = run([helm, "lint", "--strict", CHART, "--values", _values_file(tmp_path, VALUE_SETS[name])])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 chart(s) failed" in proc.stdout


@pytest.mark.parametrize("name", VALUE_SETS)
def test_rendered_kinds(render: Renderer, name: str) -> None:
    assert collections.Counter(d["kind"] for d in render(VALUE_SETS[name])) == KINDS[name]


@pytest.mark.parametrize("k8s", ["1.29.0", "1.33.0", "1.35.0"])
@pytest.mark.parametrize("name", VALUE_SETS)
def test_manifests_pass_strict_kubernetes_schema_validation(render: Renderer, name: str, k8s: str) -> None:
    for doc in render(VALUE_SETS[name]):
        if doc["kind"] in CRDS:
            continue
        kubernetes_validate.validate(doc, k8s, strict=True)


def test_operator_resources_match_the_prometheus_operator_models(render: Renderer) -> None:
    docs = [d for d in render(ALL_ON) if d["kind"] in CRDS]
    assert len(docs) == 3
    for doc in docs:
        parsed = CRDS[doc["kind"]].model_validate(doc)
        # The models ignore unknown fields: a field lost on the way back was misspelled.
        assert parsed.model_dump(by_alias=True, exclude_unset=True, mode="json") == doc


def test_strict_validation_rejects_a_misspelled_field(render: Renderer) -> None:
    gateway = copy.deepcopy(one(render(), "Deployment", "-gateway"))
    container(gateway)["readinesProbe"] = container(gateway).pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(gateway, "1.33.0", strict=True)


def _pod_labels(docs: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    return {d["metadata"]["name"]: d["spec"]["template"]["metadata"]["labels"] for d in by_kind(docs, "Deployment")}


def _selected(selector: dict[str, str], docs: list[dict[str, Any]]) -> list[str]:
    return [name for name, labels in _pod_labels(docs).items() if selector.items() <= labels.items()]


@pytest.mark.parametrize(
    ("service", "deployment", "port_name"),
    [
        ("-gateway", "fs-factsentry-gateway", "http"),
        ("-gateway-metrics", "fs-factsentry-gateway", "metrics"),
        ("-worker-metrics", "fs-factsentry-worker", "metrics"),
    ],
)
def test_each_service_selects_exactly_its_deployment_on_a_named_container_port(
    render: Renderer, service: str, deployment: str, port_name: str
) -> None:
    docs = render()
    svc = one(docs, "Service", service)
    assert _selected(svc["spec"]["selector"], docs) == [deployment]
    (port,) = svc["spec"]["ports"]
    assert port["targetPort"] == port_name
    c = container(one(docs, "Deployment", deployment.removeprefix("fs-factsentry")))
    assert port_name in {p["name"] for p in c["ports"]}


@pytest.mark.parametrize(
    ("pdb", "deployment"), [("-gateway", "fs-factsentry-gateway"), ("-worker", "fs-factsentry-worker")]
)
def test_each_disruption_budget_covers_exactly_its_deployment(render: Renderer, pdb: str, deployment: str) -> None:
    docs = render()
    budget = one(docs, "PodDisruptionBudget", pdb)
    assert _selected(budget["spec"]["selector"]["matchLabels"], docs) == [deployment]
    assert budget["spec"]["maxUnavailable"] == 1


@pytest.mark.parametrize(("values", "replicas"), [({}, 2), (ALL_ON, None)])
def test_hpa_scales_the_gateway_on_cpu_and_then_owns_its_replica_count(
    render: Renderer, values: dict[str, Any], replicas: int | None
) -> None:
    docs = render(values)
    gateway = one(docs, "Deployment", "-gateway")
    assert gateway["spec"].get("replicas") == replicas
    hpas = by_kind(docs, "HorizontalPodAutoscaler")
    if replicas is None:
        (hpa,) = hpas
        assert hpa["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "name": gateway["metadata"]["name"],
        }
        (metric,) = hpa["spec"]["metrics"]
        assert metric["resource"]["name"] == "cpu"
        assert metric["resource"]["target"] == {"type": "Utilization", "averageUtilization": 70}
    else:
        assert hpas == []


@pytest.mark.parametrize(
    ("probe", "path", "port"),
    [
        ("livenessProbe", "/healthz", "http"),
        ("readinessProbe", "/readyz", "http"),
        ("startupProbe", "/healthz", "http"),
    ],
)
def test_gateway_probes(render: Renderer, probe: str, path: str, port: str) -> None:
    c = container(one(render(), "Deployment", "-gateway"))
    assert c[probe]["httpGet"] == {"path": path, "port": port}


@pytest.mark.parametrize(
    ("values", "grace", "drain"),
    [({}, 120, "90"), ({"worker": {"terminationGracePeriodSeconds": 300, "drainTimeoutSeconds": 240}}, 300, "240")],
)
def test_worker_grace_period_outlasts_its_drain_timeout(
    render: Renderer, values: dict[str, Any], grace: int, drain: str
) -> None:
    worker = one(render(values), "Deployment", "-worker")
    assert worker["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] == grace
    assert env_of(container(worker))["FACTSENTRY_DRAIN_TIMEOUT_S"] == drain
    assert worker["spec"]["replicas"] == 3


def test_a_grace_period_shorter_than_the_drain_is_refused(helm: Path, tmp_path: Path) -> None:
    values = {**KEYS, "worker": {"terminationGracePeriodSeconds": 60, "drainTimeoutSeconds": 60}}
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert "worker.terminationGracePeriodSeconds must exceed worker.drainTimeoutSeconds" in proc.stderr


# Settings an operator tunes, as chart values: each reaches the process that reads it (values off the defaults).
TUNED: dict[str, Any] = {
    "redis": {"healthCheckSeconds": 0.5, "retries": 7},
    "gateway": {
        "publishAckTimeoutSeconds": 2.5,
        "brokerCheckTimeoutSeconds": 1.5,
        "headerTimeoutSeconds": 4,
        "bodyTimeoutSeconds": 12,
        "refusalInContent": True,
        "sendRevision": True,
    },
    "worker": {"parseCacheSize": 250000},
}


@pytest.mark.parametrize(
    ("values", "deployment", "settings_cls", "expected"),
    [
        (
            {},
            "-gateway",
            GatewaySettings,
            {
                "host": "0.0.0.0",
                "port": 8080,
                "kafka_bootstrap": "kafka:9092",
                "log_level": "info",
                "result_ttl_s": 86400,
                "metrics_port": 9464,
                "metrics_host": "0.0.0.0",
                "keys_file": Path("/etc/factsentry-auth/keys.yaml"),
                "allow_unauthenticated": False,
                "publish_ack_timeout_s": 5.0,
                "broker_check_timeout_s": 4.0,
                "header_timeout_s": 10.0,
                "body_timeout_s": 30.0,
                "refusal_in_content": False,
                "send_revision": False,
                "redis_health_check_s": 2.0,
                "redis_retries": 3,
            },
        ),
        (
            {},
            "-worker",
            WorkerSettings,
            {
                "concurrency": 4,
                "metrics_port": 9464,
                "metrics_host": "0.0.0.0",
                "drain_timeout_s": 90.0,
                "topic_partitions": 12,
                "result_ttl_s": 86400,
                "parse_cache_size": 4000,
                "redis_health_check_s": 2.0,
                "redis_retries": 3,
            },
        ),
        (
            TUNED,
            "-gateway",
            GatewaySettings,
            {
                "redis_health_check_s": 0.5,
                "redis_retries": 7,
                "publish_ack_timeout_s": 2.5,
                "broker_check_timeout_s": 1.5,
                "header_timeout_s": 4.0,
                "body_timeout_s": 12.0,
                "refusal_in_content": True,
                "send_revision": True,
            },
        ),
        (
            TUNED,
            "-worker",
            WorkerSettings,
            {"redis_health_check_s": 0.5, "redis_retries": 7, "parse_cache_size": 250000},
        ),
    ],
)
def test_the_processes_read_every_factsentry_variable_of_their_container(
    render: Renderer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    values: dict[str, Any],
    deployment: str,
    settings_cls: type[Any],
    expected: dict[str, Any],
) -> None:
    env = env_of(container(one(render(values), "Deployment", deployment)))
    ours = {k: v for k, v in env.items() if k.startswith("FACTSENTRY_")}
    fields = {f"FACTSENTRY_{name.upper()}" for name in settings_cls.model_fields}
    assert set(ours) <= fields, f"{sorted(set(ours) - fields)} are read by nothing"
    if "FACTSENTRY_KB_PATH" in ours:  # the image's store does not exist here; the setting checks that it does
        kb = tmp_path / "kb.sqlite3"
        kb.touch()
        ours["FACTSENTRY_KB_PATH"] = str(kb)
    for key, value in ours.items():
        monkeypatch.setenv(key, value)
    settings = settings_cls()
    assert {k: getattr(settings, k) for k in expected} == expected


def test_workers_get_the_llm_judge_from_the_model_list_the_gateway_reads(render: Renderer) -> None:
    judge = {"model_name": "judge", "litellm_params": {"model": "openai/gpt-4o-mini", "api_key": "os.environ/K"}}
    values = {"worker": {"engine": "hybrid", "judgeModel": "judge"}, "models": {"model_list": [judge]}}
    worker = one(render(values), "Deployment", "-worker")
    env = env_of(container(worker))
    assert env["FACTSENTRY_ENGINE"] == "hybrid" and env["FACTSENTRY_JUDGE_MODEL"] == "judge"
    assert env["FACTSENTRY_MODELS_FILE"] == "/etc/factsentry/models.yaml"
    assert "/etc/factsentry" in {m["mountPath"] for m in container(worker)["volumeMounts"]}
    offline = env_of(container(one(render(), "Deployment", "-worker")))
    assert offline["FACTSENTRY_ENGINE"] == "offline" and "FACTSENTRY_JUDGE_MODEL" not in offline


@pytest.mark.parametrize("deployment", ["-gateway", "-worker"])
def test_traces_go_to_the_otlp_endpoint_only_when_one_is_set(render: Renderer, deployment: str) -> None:
    endpoint = "http://otel-collector.observability:4318"
    traced = env_of(container(one(render({"tracing": {"otlpEndpoint": endpoint}}), "Deployment", deployment)))
    assert traced["OTEL_EXPORTER_OTLP_ENDPOINT"] == endpoint
    assert exporter_names(traced) == ["otlp"]
    plain = env_of(container(one(render(), "Deployment", deployment)))
    assert not [k for k in plain if k.startswith("OTEL_")] and exporter_names(plain) == []


def test_workers_scale_on_cpu_by_default_when_autoscaling(render: Renderer) -> None:
    docs = render({"worker": {"autoscaling": {"enabled": True}}})
    worker = one(docs, "Deployment", "-worker")
    assert "replicas" not in worker["spec"], "the autoscaler owns the replica count"
    hpa = one(docs, "HorizontalPodAutoscaler", "-worker")
    assert hpa["spec"]["scaleTargetRef"]["name"] == worker["metadata"]["name"]
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (2, 12)
    assert hpa["spec"]["metrics"][0]["resource"]["target"] == {"type": "Utilization", "averageUtilization": 70}
    assert by_kind(render(), "HorizontalPodAutoscaler") == []


def test_keda_scales_workers_on_the_consumer_groups_lag(render: Renderer) -> None:
    values = {
        "worker": {"consumerGroup": "fs-prod", "autoscaling": {"enabled": True, "type": "keda", "maxReplicas": 8}},
        "kafka": {"bootstrap": "kafka-0:9092,kafka-1:9092"},
    }
    docs = render(values)
    worker = one(docs, "Deployment", "-worker")
    (scaled,) = [d for d in docs if d["kind"] == "ScaledObject"]
    assert scaled["apiVersion"] == "keda.sh/v1alpha1"
    assert scaled["spec"]["scaleTargetRef"] == {"name": worker["metadata"]["name"]}
    assert (scaled["spec"]["minReplicaCount"], scaled["spec"]["maxReplicaCount"]) == (2, 8)
    kafka, cpu = scaled["spec"]["triggers"]
    assert kafka["type"] == "kafka" and kafka["metadata"] == {
        "bootstrapServers": "kafka-0:9092,kafka-1:9092",
        "consumerGroup": "fs-prod",
        "topic": "factsentry.generations.v1",
        "lagThreshold": "50",
        "activationLagThreshold": "5",
        "offsetResetPolicy": "earliest",
        "allowIdleConsumers": "false",
    }
    assert cpu == {"type": "cpu", "metricType": "Utilization", "metadata": {"value": "70"}}
    # the lag KEDA reads is the group the workers consume in
    assert env_of(container(worker))["FACTSENTRY_GROUP_ID"] == "fs-prod"
    assert by_kind(docs, "HorizontalPodAutoscaler") == [], "KEDA makes its own"


def test_more_worker_replicas_than_partitions_is_refused(helm: Path, tmp_path: Path) -> None:
    values = {**KEYS, "worker": {"autoscaling": {"enabled": True, "maxReplicas": 20}}}
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert "worker.autoscaling.maxReplicas (20) exceeds topics.generations.partitions (12)" in proc.stderr


def test_an_llm_engine_without_a_judge_is_refused(helm: Path, tmp_path: Path) -> None:
    values = {**KEYS, "worker": {"engine": "llm"}}
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert "worker.engine llm or hybrid needs worker.judgeModel" in proc.stderr


def test_models_and_policies_reach_the_gateway_through_the_configmap(render: Renderer, tmp_path: Path) -> None:
    docs = render()
    config = one(docs, "ConfigMap", "-config")
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    assert yaml.safe_load(config["data"]["models.yaml"]) == values["models"]
    policies = tmp_path / "policies.yaml"
    policies.write_text(config["data"]["policies.yaml"])
    table = PolicyTable.load(policies)
    assert (table.for_model("demo").mode.value, table.for_model("other").mode.value) == ("annotate", "observe")
    gateway = one(docs, "Deployment", "-gateway")
    mounts = {m["name"]: m["mountPath"] for m in container(gateway)["volumeMounts"]}
    volumes = {v["name"]: v for v in gateway["spec"]["template"]["spec"]["volumes"]}
    assert mounts["config"] == "/etc/factsentry"
    assert volumes["config"]["configMap"]["name"] == config["metadata"]["name"]
    env = env_of(container(gateway))
    assert (env["FACTSENTRY_MODELS_FILE"], env["FACTSENTRY_POLICY_FILE"]) == (
        "/etc/factsentry/models.yaml",
        "/etc/factsentry/policies.yaml",
    )


@pytest.mark.parametrize(
    ("change", "rolls"),
    [({}, False), ({"policies": {"default": {"mode": "block"}}}, True), ({"worker": {"replicaCount": 5}}, False)],
)
def test_pods_roll_when_and_only_when_the_config_changes(render: Renderer, change: dict[str, Any], rolls: bool) -> None:
    def checksums(values: dict[str, Any]) -> set[str]:
        return {
            d["spec"]["template"]["metadata"]["annotations"]["checksum/config"]
            for d in by_kind(render(values), "Deployment")
        }

    before, after = checksums({}), checksums(change)
    assert len(before) == 1
    assert (before != after) is rolls


@pytest.mark.parametrize(
    ("values", "source", "copy"),
    [
        ({}, "/opt/factsentry/kb/demo-kb.sqlite3", "/var/lib/factsentry/kb/demo-kb.sqlite3"),
        (ALL_ON, "/var/lib/factsentry/kb-source/wiki.sqlite3", "/var/lib/factsentry/kb/wiki.sqlite3"),
    ],
)
def test_the_worker_reads_a_copy_of_the_store_on_a_writable_volume(
    render: Renderer, values: dict[str, Any], source: str, copy: str
) -> None:
    """SQLite opens the store read-write (WAL files beside it); image and claim are read-only."""
    worker = one(render(values), "Deployment", "-worker")
    spec = worker["spec"]["template"]["spec"]
    (init,) = spec["initContainers"]
    assert init["command"] == ["cp", "--", source, copy]
    assert init["image"] == container(worker)["image"]
    assert env_of(container(worker))["FACTSENTRY_KB_PATH"] == copy
    volumes = {v["name"]: v for v in spec["volumes"]}
    for c in (init, container(worker)):
        kb_mount = next(m for m in c["volumeMounts"] if copy.startswith(m["mountPath"] + "/"))
        assert "emptyDir" in volumes[kb_mount["name"]] and not kb_mount.get("readOnly")
    if values is ALL_ON:
        assert volumes["kb-source"]["persistentVolumeClaim"] == {"claimName": "factsentry-kb", "readOnly": True}
        assert {"name": "kb-source", "mountPath": "/var/lib/factsentry/kb-source", "readOnly": True} in init[
            "volumeMounts"
        ]
    gateway_volumes = {
        v["name"] for v in one(render(values), "Deployment", "-gateway")["spec"]["template"]["spec"]["volumes"]
    }
    assert gateway_volumes == {"config", "tmp", "api-keys"}


@pytest.mark.parametrize(
    ("values", "redis", "secret_refs"),
    [
        ({}, "redis://redis:6379/0", [{"secretRef": {"name": "factsentry-api-keys", "optional": True}}]),
        (
            ALL_ON,
            {"secretKeyRef": {"name": "factsentry-redis", "key": "redis-url"}},
            [{"secretRef": {"name": "factsentry-api-keys", "optional": True}}],
        ),
        (MINIMAL, "redis://redis:6379/0", None),
    ],
)
def test_secrets_are_referenced_never_inlined(
    render: Renderer, values: dict[str, Any], redis: Any, secret_refs: Any
) -> None:
    docs = render(values)
    assert by_kind(docs, "Secret") == []
    for deployment in by_kind(docs, "Deployment"):
        c = container(deployment)
        assert env_of(c)["FACTSENTRY_REDIS_URL"] == redis
        assert c.get("envFrom") == secret_refs
        inline = {e["name"] for e in c["env"] if "value" in e}
        assert not [n for n in inline if any(w in n for w in ("API_KEY", "TOKEN", "PASSWORD", "SECRET"))]


def test_prometheus_rule_carries_exactly_the_deploy_alerts(render: Renderer) -> None:
    rule = one(render(ALL_ON), "PrometheusRule")
    assert rule["spec"] == yaml.safe_load((REPO / "deploy" / "prometheus" / "alerts.yml").read_text())


@pytest.mark.parametrize(("monitor", "service"), [("-gateway", "-gateway-metrics"), ("-worker", "-worker-metrics")])
def test_service_monitors_scrape_a_port_their_service_has(render: Renderer, monitor: str, service: str) -> None:
    docs = render(ALL_ON)
    sm = one(docs, "ServiceMonitor", monitor)
    svc = one(docs, "Service", service)
    assert sm["spec"]["selector"]["matchLabels"].items() <= svc["metadata"]["labels"].items()
    assert [
        s
        for s in by_kind(docs, "Service")
        if sm["spec"]["selector"]["matchLabels"].items() <= s["metadata"]["labels"].items()
    ] == [svc]
    (endpoint,) = sm["spec"]["endpoints"]
    assert endpoint["port"] in {p["name"] for p in svc["spec"]["ports"]}
    assert endpoint["path"] == "/metrics"
    assert sm["metadata"]["labels"]["release"] == "kube-prom"
    assert sm["spec"]["namespaceSelector"] == {"matchNames": ["factsentry"]}


def test_topics_job_creates_the_bus_topics_with_a_valid_script(render: Renderer) -> None:
    job = one(render(ALL_ON), "Job", "-topics")
    assert job["metadata"]["annotations"]["helm.sh/hook"] == "post-install,post-upgrade"
    c = job["spec"]["template"]["spec"]["containers"][0]
    script = c["args"][0]
    created = [line.split()[1:] for line in script.splitlines() if line.strip().startswith("create ")]
    assert created == [
        [topics.GENERATIONS, "12", "604800000"],
        [topics.RESULTS, "6", "604800000"],
        [topics.GENERATIONS_DLQ, "3", "2592000000"],
    ]
    assert subprocess.run(["bash", "-n", "-c", script], capture_output=True, check=False).returncode == 0
    assert env_of(c) == {"BOOTSTRAP": "kafka:9092", "REPLICATION": "3"}


@pytest.mark.parametrize("name", VALUE_SETS)
def test_pods_run_as_non_root_with_a_read_only_root_filesystem(render: Renderer, name: str) -> None:
    for deployment in by_kind(render(VALUE_SETS[name]), "Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] != 0
        sc = container(deployment)["securityContext"]
        assert (sc["readOnlyRootFilesystem"], sc["allowPrivilegeEscalation"], sc["capabilities"]) == (
            True,
            False,
            {"drop": ["ALL"]},
        )
        assert "/tmp" in {m["mountPath"] for m in container(deployment)["volumeMounts"]}


@pytest.mark.parametrize(
    ("values", "image"),
    [
        ({}, "factsentry:0.1.0"),
        ({"image": {"repository": "registry.example/fs", "tag": "abc123"}}, "registry.example/fs:abc123"),
    ],
)
def test_image_defaults_to_the_chart_app_version(render: Renderer, values: dict[str, Any], image: str) -> None:
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
    assert chart["appVersion"] == "0.1.0"
    images = {container(d)["image"] for d in by_kind(render(values), "Deployment")}
    assert images == {image}
    assert {tuple(container(d)["args"]) for d in by_kind(render(values), "Deployment")} == {("gateway",), ("worker",)}


def test_install_notes_name_the_gateway_service(helm: Path) -> None:
    proc = run(
        [
            *(helm, "install", "fs", CHART, "--dry-run=client", "--namespace", "factsentry"),
            *("--set", "auth.existingSecret=factsentry-gateway-keys"),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    notes = proc.stdout.split("NOTES:", 1)[1]
    assert "port-forward svc/fs-factsentry-gateway 8080:80" in notes
    assert "workers create missing topics with 12 partitions" in notes


def test_a_shadow_policy_reaches_the_gateway_through_the_configmap(render: Renderer, tmp_path: Path) -> None:
    shadow = {"mode": "block", "threshold": 0.8}
    values = {"policies": {"default": {"mode": "observe", "shadow": shadow}, "models": {"demo": {"shadow": None}}}}
    config = one(render(values), "ConfigMap", "-config")
    policies = tmp_path / "policies.yaml"
    policies.write_text(config["data"]["policies.yaml"])
    table = PolicyTable.load(policies)
    other = table.for_model("other").shadow
    assert other is not None and (other.mode.value, other.threshold) == ("block", 0.8)
    assert table.for_model("demo").shadow is None


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"worker": {"replicas": 3}}, "additional properties 'replicas' not allowed"),
        ({"policies": {"default": {"mode": "blok"}}}, "value must be one of 'observe', 'annotate', 'block', 'revise'"),
        ({"policies": {"models": {"demo": {"threshold": 1.5}}}}, "maximum"),
        ({"policies": {"default": {"shadow": {"mode": "observe"}}}}, "value must be one of 'revise', 'block'"),
        ({"policies": {"default": {"shadow": {"threshold": 0.8}}}}, "missing property 'mode'"),
        ({"redis": {"url": "localhost:6379"}}, "does not match pattern"),
        ({"models": {"model_list": [{"model_name": "x"}]}}, "missing property 'litellm_params'"),
        ({"gateway": {"autoscaling": {"targetCPUUtilizationPercentage": 0}}}, "minimum"),
        ({"redis": {"retries": 21}}, "maximum"),
        ({"gateway": {"publishAckTimeoutSeconds": 0}}, "exclusiveMinimum"),
        ({"gateway": {"sendRevision": "yes"}}, "got string, want boolean"),
        ({"worker": {"parseCacheSize": 0}}, "minimum"),
    ],
)
def test_values_schema_refuses_mistakes_before_anything_renders(
    helm: Path, tmp_path: Path, values: dict[str, Any], message: str
) -> None:
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert message in proc.stderr


def test_values_schema_knows_exactly_the_gateways_policy_fields() -> None:
    schema = json.loads((CHART / "values.schema.json").read_text())
    policy = schema["properties"]["policies"]["properties"]["default"]
    assert set(policy["properties"]) == set(PolicySpec.model_fields)
    assert policy["properties"]["mode"]["enum"] == [p.value for p in Policy]


AUTH_REFUSED = "auth: set auth.existingSecret to a Secret holding the hashed API keys under keys.yaml"


@pytest.mark.parametrize(
    "values",
    [{}, {"auth": {"existingSecret": "", "allowUnauthenticated": False}}, {"auth": {"metricsTokenSecret": "t"}}],
)
def test_the_chart_refuses_to_render_without_an_auth_choice(helm: Path, tmp_path: Path, values: dict[str, Any]) -> None:
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert AUTH_REFUSED in proc.stderr
    assert "auth.allowUnauthenticated=true" in proc.stderr


def _gateway_env_settings(env: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> GatewaySettings:
    for key, value in env.items():
        if key.startswith("FACTSENTRY_") and isinstance(value, str):
            monkeypatch.setenv(key, value)
    return GatewaySettings()


def test_api_keys_come_from_the_secret_mounted_as_a_directory(
    render: Renderer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway = one(render(ALL_ON), "Deployment", "-gateway")
    c = container(gateway)
    volumes = {v["name"]: v for v in gateway["spec"]["template"]["spec"]["volumes"]}
    assert volumes["api-keys"]["secret"] == {
        "secretName": "factsentry-gateway-keys",
        "items": [{"key": "keys.yaml", "path": "keys.yaml"}],
        "defaultMode": 0o440,
    }
    (mount,) = [m for m in c["volumeMounts"] if m["name"] == "api-keys"]
    # No subPath: the kubelet swaps the directory when the Secret changes and the gateway re-reads the keys.
    assert mount == {"name": "api-keys", "mountPath": "/etc/factsentry-auth", "readOnly": True}
    env = env_of(c)
    assert env["FACTSENTRY_KEYS_FILE"] == "/etc/factsentry-auth/keys.yaml"
    assert env["FACTSENTRY_ALLOW_UNAUTHENTICATED"] == "false"
    assert env["FACTSENTRY_METRICS_TOKEN"] == {"secretKeyRef": {"name": "factsentry-metrics-token", "key": "token"}}
    settings = _gateway_env_settings(env, monkeypatch)
    assert settings.keys_file == Path("/etc/factsentry-auth/keys.yaml") and not settings.allow_unauthenticated
    check_exposure(settings.host, settings.keys_file, settings.allow_unauthenticated)
    worker = one(render(ALL_ON), "Deployment", "-worker")
    assert not [k for k in env_of(container(worker)) if k in {"FACTSENTRY_KEYS_FILE", "FACTSENTRY_METRICS_TOKEN"}]


def test_allow_unauthenticated_is_an_explicit_opt_out(render: Renderer, monkeypatch: pytest.MonkeyPatch) -> None:
    gateway = one(render(MINIMAL), "Deployment", "-gateway")
    env = env_of(container(gateway))
    assert env["FACTSENTRY_ALLOW_UNAUTHENTICATED"] == "true"
    assert "FACTSENTRY_KEYS_FILE" not in env and "FACTSENTRY_METRICS_TOKEN" not in env
    assert "api-keys" not in {v["name"] for v in gateway["spec"]["template"]["spec"]["volumes"]}
    settings = _gateway_env_settings(env, monkeypatch)
    assert (settings.host, settings.keys_file, settings.allow_unauthenticated) == ("0.0.0.0", None, True)
    check_exposure(settings.host, settings.keys_file, settings.allow_unauthenticated)


def test_metrics_listen_beyond_loopback_only_in_the_pods(render: Renderer) -> None:
    """Processes started by hand keep metrics on 127.0.0.1; the chart opens them to the pod network."""
    assert WorkerSettings.model_fields["metrics_host"].default == "127.0.0.1"
    assert GatewaySettings.model_fields["metrics_host"].default == "127.0.0.1"
    for deployment in by_kind(render(), "Deployment"):
        c = container(deployment)
        env = env_of(c)
        assert env["FACTSENTRY_METRICS_HOST"] == "0.0.0.0"
        metrics = next(p for p in c["ports"] if p["name"] == "metrics")
        assert str(metrics["containerPort"]) == env["FACTSENTRY_METRICS_PORT"] == "9464"
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/port"] == "9464"


PROMETHEUS_PEER = {
    "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}},
    "podSelector": {"matchLabels": {"app.kubernetes.io/name": "prometheus"}},
}


def _named_ports(deployment: dict[str, Any]) -> set[str]:
    return {p["name"] for p in container(deployment)["ports"]}


@pytest.mark.parametrize(
    ("values", "gateway_from"),
    [
        ({}, None),
        (ALL_ON, [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}}]),
    ],
)
def test_network_policies_admit_the_api_anywhere_configured_and_metrics_from_prometheus_only(
    render: Renderer, values: dict[str, Any], gateway_from: list[dict[str, Any]] | None
) -> None:
    docs = render(values)
    api: dict[str, Any] = {"ports": [{"port": "http", "protocol": "TCP"}]}
    if gateway_from:
        api["from"] = gateway_from
    metrics = {"ports": [{"port": "metrics", "protocol": "TCP"}], "from": [PROMETHEUS_PEER]}
    expected: dict[str, list[dict[str, Any]]] = {"gateway": [api, metrics], "worker": [metrics]}
    for component, rules in expected.items():
        policy = one(docs, "NetworkPolicy", f"-{component}")
        assert _selected(policy["spec"]["podSelector"]["matchLabels"], docs) == [f"fs-factsentry-{component}"]
        assert policy["spec"]["policyTypes"] == ["Ingress"]
        assert policy["spec"]["ingress"] == rules
        deployment = one(docs, "Deployment", f"-{component}")
        assert {p["port"] for rule in rules for p in rule["ports"]} <= _named_ports(deployment)


def test_network_policy_prometheus_selectors_are_configurable(render: Renderer) -> None:
    """Another monitoring namespace, and the pod selector dropped (helm merges maps: null removes a default)."""
    values = {
        "networkPolicy": {
            "prometheus": {
                "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "observability"}},
                "podSelector": None,
            }
        }
    }
    for component in ("gateway", "worker"):
        policy = one(render(values), "NetworkPolicy", f"-{component}")
        assert policy["spec"]["ingress"][-1]["from"] == [
            {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "observability"}}}
        ]
    assert by_kind(render(MINIMAL), "NetworkPolicy") == []


def test_network_policy_without_a_prometheus_selector_is_refused(helm: Path, tmp_path: Path) -> None:
    values = {**KEYS, "networkPolicy": {"prometheus": {"namespaceSelector": None, "podSelector": None}}}
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert "networkPolicy.prometheus needs a namespaceSelector or a podSelector" in proc.stderr


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"auth": {"allowUnauthenticated": "yes"}}, "at '/auth/allowUnauthenticated'"),
        ({"auth": {"existingSecrets": "x"}}, "additional properties 'existingSecrets' not allowed"),
        ({"networkPolicy": {"gatewayFrom": [{}]}}, "at '/networkPolicy/gatewayFrom/0'"),
        ({"networkPolicy": {"prometheus": {"podSelector": {"matchLabel": {}}}}}, "'matchLabel' not allowed"),
        ({"gateway": {"metricsPort": 0}}, "minimum"),
    ],
)
def test_values_schema_refuses_auth_and_network_policy_mistakes(
    helm: Path, tmp_path: Path, values: dict[str, Any], message: str
) -> None:
    proc = run([helm, "template", "fs", CHART, "--values", _values_file(tmp_path, values)])
    assert proc.returncode != 0
    assert message in proc.stderr


def test_service_monitors_write_the_target_labels_on_every_series(render: Renderer) -> None:
    values = {
        **ALL_ON,
        "metrics": {
            **ALL_ON["metrics"],
            "serviceMonitor": {"enabled": True, "targetLabels": {"env": "prod", "cluster": "eu-1"}},
        },
    }
    for sm in by_kind(render(values), "ServiceMonitor"):
        (endpoint,) = sm["spec"]["endpoints"]
        assert endpoint["relabelings"] == [
            {"action": "replace", "targetLabel": "cluster", "replacement": "eu-1"},
            {"action": "replace", "targetLabel": "env", "replacement": "prod"},
        ]
        monitoring.ServiceMonitor.model_validate(sm)
    for sm in by_kind(render(ALL_ON), "ServiceMonitor"):
        assert "relabelings" not in sm["spec"]["endpoints"][0]


@pytest.mark.parametrize(
    "base", ["https://wiki.example.com/sre/factsentry", "https://wiki.example.com/sre/factsentry/"]
)
def test_prometheus_rule_links_the_runbooks_where_the_operator_publishes_them(render: Renderer, base: str) -> None:
    values = {**ALL_ON, "metrics": {**ALL_ON["metrics"], "prometheusRule": {"enabled": True, "runbookBaseUrl": base}}}
    rule = one(render(values), "PrometheusRule")
    shipped = yaml.safe_load((REPO / "deploy" / "prometheus" / "alerts.yml").read_text())
    for group, ours in zip(rule["spec"]["groups"], shipped["groups"], strict=True):
        for r, o in zip(group["rules"], ours["rules"], strict=True):
            if "alert" in r:
                assert r["annotations"]["runbook_url"] == f"https://wiki.example.com/sre/factsentry/{r['alert']}.md"
                assert {**r["annotations"], "runbook_url": o["annotations"]["runbook_url"]} == o["annotations"]
            assert r["expr"] == o["expr"]
