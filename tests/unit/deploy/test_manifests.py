"""The Kubernetes manifests an operator applies (PLAT-5), checked offline in every run:
rendered by kustomize, validated against each supported Kubernetes version's schema,
linted by checkov (tools/check_manifests.py)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY

import tavolo.servicekit.metrics  # noqa: F401  (registers the services' collectors)

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
import check_manifests

K8S = check_manifests.K8S
# `make test` installs the tools first (`make deploy-tools`); a run of pytest alone on a
# machine without them says so once instead of erroring in every test.
pytestmark = pytest.mark.skipif(
    not (check_manifests.TOOLS / "kubectl").exists(),
    reason=f"{check_manifests.TOOLS} has no kubectl: run `make deploy-tools` first",
)
SERVICES = {"lobby": 50051, "engine": 50052, "wallet": 50053, "leaderboard": 50054}


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    return {name: check_manifests.render(K8S / name) for name in check_manifests.RENDERED}


def test_every_overlay_renders_validates_and_passes_the_security_lint() -> None:
    assert check_manifests.check() == []


def _copy_with_overlay(tmp_path: Path, patch: str = "", extra: str = "") -> Path:
    """deploy/k8s copied, with overlays/broken: dev plus ``patch`` and an ``extra`` file."""
    base = tmp_path / "k8s"
    shutil.copytree(K8S, base)
    broken = base / "overlays" / "broken"
    broken.mkdir()
    resources = "[../dev, extra.yaml]" if extra else "[../dev]"
    (broken / "extra.yaml").write_text(extra)
    (broken / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\n"
        "kind: Kustomization\n"
        f"resources: {resources}\n" + patch
    )
    return base


def test_the_checks_catch_a_broken_manifest(tmp_path: Path) -> None:
    base = _copy_with_overlay(
        tmp_path,
        "patches:\n"
        "  - target: {kind: Deployment, name: engine}\n"
        "    patch: |-\n"
        "      - {op: replace, path: /spec/template/spec/containers/0/securityContext,"
        " value: {privileged: true}}\n"
        "      - {op: add, path: /spec/replica, value: 3}\n",
    )
    findings = [str(f) for f in check_manifests.check(["overlays/broken"], base, ["1.34.0"])]
    assert any("'replica' was unexpected" in f for f in findings), findings
    assert any("CKV_K8S_16" in f and "engine" in f for f in findings), findings


def test_a_mistyped_operator_kind_is_not_taken_for_a_known_crd(tmp_path: Path) -> None:
    base = _copy_with_overlay(
        tmp_path,
        extra="apiVersion: gateway.networking.k8s.io/v1beta9\nkind: GRPCRoute\n"
        "metadata: {name: typo}\nspec: {}\n",
    )
    findings = [str(f) for f in check_manifests.check(["overlays/broken"], base, ["1.34.0"])]
    assert any("GRPCRoute" in f and "v1beta9" in f for f in findings), findings


def _resources(text: str, kind: str) -> list[dict[str, Any]]:
    return [r for r in yaml.safe_load_all(text) if r and r["kind"] == kind]


def test_the_gateway_routes_each_grpc_service_to_its_deployment(rendered: dict[str, str]) -> None:
    prod = rendered["overlays/prod"]
    services = {s["metadata"]["name"]: s for s in _resources(prod, "Service")}
    routed = {}
    for route in _resources(prod, "GRPCRoute"):
        (rule,) = route["spec"]["rules"]
        (backend,) = rule["backendRefs"]
        routed[rule["matches"][0]["method"]["service"]] = (backend["name"], backend["port"])
        grpc = [p for p in services[backend["name"]]["spec"]["ports"] if p["name"] == "grpc"]
        assert grpc[0]["port"] == backend["port"]
    assert routed == {f"tavolo.v1.{n.capitalize()}": (n, p) for n, p in SERVICES.items()}


def test_every_pod_runs_restricted(rendered: dict[str, str]) -> None:
    """Non-root, read-only root file system, no escalation, no capabilities, seccomp."""
    for overlay in ("overlays/dev", "overlays/prod"):
        deployments = _resources(rendered[overlay], "Deployment")
        assert sorted(d["metadata"]["name"] for d in deployments) == sorted(SERVICES)
        for deployment in deployments:
            pod = deployment["spec"]["template"]["spec"]
            (container,) = pod["containers"]
            security = container["securityContext"]
            assert pod["securityContext"]["runAsNonRoot"] is True
            assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
            assert pod["automountServiceAccountToken"] is False
            assert security["readOnlyRootFilesystem"] is True
            assert security["allowPrivilegeEscalation"] is False
            assert security["capabilities"] == {"drop": ["ALL"]}
            assert container["lifecycle"]["preStop"]["sleep"]["seconds"] > 0
            assert {"grpc"} <= set(container["readinessProbe"])
            secrets = {
                e["valueFrom"]["secretKeyRef"]["name"] for e in container["env"] if "valueFrom" in e
            }
            # The token secret and the checkpoint key come from Secrets, never the
            # development ones in the source (AUDIT-3).
            assert secrets == {
                "tavolo-tokens",
                "tavolo-checkpoints",
                f"tavolo-db-{deployment['metadata']['name']}",
            }
            names = {e["name"] for e in container["env"] if "valueFrom" in e}
            assert {"TAVOLO_TOKEN_SECRET", "TAVOLO_CHECKPOINT_KEY"} <= names


def test_the_alerts_watch_metrics_that_exist(rendered: dict[str, str]) -> None:
    """A rule on a misspelt metric never fires: each tavolo_* name must be exported."""
    exported = set()
    for metric in REGISTRY.collect():
        exported.add(metric.name + ("_total" if metric.type == "counter" else ""))
    watched = set(re.findall(r"\b(tavolo_[a-z_]+)", rendered["overlays/prod"]))
    watched -= {"tavolo_online"}  # the PriorityClass, not a metric
    assert watched and watched <= exported, watched - exported


def test_prod_spreads_every_service_across_zones_and_dev_runs_one_replica(
    rendered: dict[str, str],
) -> None:
    prod, dev = rendered["overlays/prod"], rendered["overlays/dev"]
    assert prod.count("topologyKey: topology.kubernetes.io/zone") >= len(SERVICES)
    assert prod.count("priorityClassName: tavolo-online") == len(SERVICES)
    assert dev.count("replicas: 1") == len(SERVICES)
