"""deploy/prometheus/kubernetes.yml: the scrape job for a Prometheus in Kubernetes without the operator.

Debian's Prometheus is built without Kubernetes discovery, so the test hands the real server the same
``__meta_kubernetes_*`` labels pod discovery would give for the chart's rendered pods (through file
discovery) and reads the targets its relabelling made: address, path and labels."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from factsentry.embedded import free_port
from tests.deploy.conftest import REPO, Renderer, by_kind, run

pytestmark = pytest.mark.integration

CONFIG = REPO / "deploy" / "prometheus" / "kubernetes.yml"
VALUES = {"auth": {"allowUnauthenticated": True}}


def _meta(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)


def _pod_targets(docs: list[dict[str, Any]], phase: str = "Running") -> list[dict[str, Any]]:
    """What role: pod discovery says about one pod of each rendered Deployment (pod IP, no port)."""
    groups = []
    for i, deployment in enumerate(by_kind(docs, "Deployment")):
        meta = deployment["spec"]["template"]["metadata"]
        labels = {f"__meta_kubernetes_pod_label_{_meta(k)}": v for k, v in meta["labels"].items()}
        labels |= {f"__meta_kubernetes_pod_annotation_{_meta(k)}": v for k, v in meta.get("annotations", {}).items()}
        labels |= {
            "__meta_kubernetes_namespace": "factsentry",
            "__meta_kubernetes_pod_name": f"{deployment['metadata']['name']}-0",
            "__meta_kubernetes_pod_phase": phase,
        }
        groups.append({"targets": [f"10.0.0.{i + 1}"], "labels": labels})
    return groups


def _targets(prometheus: Path, tmp_path: Path, groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    config = yaml.safe_load(CONFIG.read_text())
    (job,) = config["scrape_configs"]
    assert job.pop("kubernetes_sd_configs") == [{"role": "pod"}]
    (tmp_path / "pods.json").write_text(json.dumps(groups))
    job["file_sd_configs"] = [{"files": [str(tmp_path / "pods.json")]}]
    config["rule_files"] = [str(REPO / "deploy" / "prometheus" / "alerts.yml")]
    path = tmp_path / "prometheus.yml"
    path.write_text(yaml.safe_dump(config))
    port = free_port()
    log = tmp_path / "prometheus.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                str(prometheus),
                f"--config.file={path}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{port}",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                body = httpx.get(f"http://127.0.0.1:{port}/api/v1/targets", timeout=5).json()
                active = body["data"]["activeTargets"]
                dropped = body["data"]["droppedTargets"]
                if len(active) + len(dropped) == sum(len(g["targets"]) for g in groups):
                    return list(active)
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            if process.poll() is not None:
                break
            time.sleep(0.3)
        raise AssertionError(log.read_text())
    finally:
        process.terminate()
        process.wait(10)


def test_promtool_accepts_the_config_with_pod_discovery_swapped_for_files(promtool: Path, tmp_path: Path) -> None:
    config = yaml.safe_load(CONFIG.read_text())
    config["scrape_configs"][0].pop("kubernetes_sd_configs")
    config["scrape_configs"][0]["file_sd_configs"] = [{"files": ["pods.json"]}]
    config["rule_files"] = [str(REPO / "deploy" / "prometheus" / "alerts.yml")]
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    proc = run([promtool, "check", "config", tmp_path / "prometheus.yml"])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_each_chart_pod_is_scraped_on_its_metrics_port_with_component_namespace_and_env(
    render: Renderer, prometheus: Path, tmp_path: Path
) -> None:
    docs = render({**VALUES, "gateway": {"metricsPort": 9470}, "worker": {"metricsPort": 9471}})
    targets = _targets(prometheus, tmp_path, _pod_targets(docs))
    found = {t["labels"]["component"]: t for t in targets}
    assert sorted(found) == ["gateway", "worker"]
    assert found["gateway"]["scrapeUrl"] == "http://10.0.0.1:9470/metrics"
    assert found["worker"]["scrapeUrl"] == "http://10.0.0.2:9471/metrics"
    for component, target in found.items():
        labels = target["labels"]
        assert labels["namespace"] == "factsentry"
        assert labels["env"] == "production"
        assert labels["pod"] == f"fs-factsentry-{component}-0"
        assert labels["job"] == "factsentry"


def test_pods_without_the_scrape_annotation_or_not_running_are_not_scraped(
    render: Renderer, prometheus: Path, tmp_path: Path
) -> None:
    off = _pod_targets(render({**VALUES, "metrics": {"podAnnotations": False}}))
    pending = _pod_targets(render(VALUES), phase="Pending")
    for i, group in enumerate(pending):
        group["targets"] = [f"10.0.1.{i + 1}"]
    assert _targets(prometheus, tmp_path, off + pending) == []
