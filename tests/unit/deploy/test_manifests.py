"""The Kubernetes manifests an operator applies (PLAT-5), checked offline in every run:
rendered by kustomize, validated against each supported Kubernetes version's schema,
linted by checkov (tools/check_manifests.py)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY

import tavolo.messaging.deadletters
import tavolo.servicekit.metrics  # noqa: F401  (registers the services' collectors)

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
import check_manifests

from .network_policy import Pod, allows, covered
from .promql import references

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
    """Non-root, read-only root file system, no escalation, no capabilities, seccomp; the
    services' secrets by reference only, the first operator's optional (PLAT-5)."""
    for overlay in ("overlays/dev", "overlays/prod"):
        deployments = _resources(rendered[overlay], "Deployment")
        services = [d for d in deployments if d["metadata"]["name"] in SERVICES]
        assert sorted(d["metadata"]["name"] for d in services) == sorted(SERVICES)
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
            assert "readinessProbe" in container
        for deployment in services:
            name = deployment["metadata"]["name"]
            (container,) = deployment["spec"]["template"]["spec"]["containers"]
            assert container["lifecycle"]["preStop"]["sleep"]["seconds"] > 0
            assert {"grpc"} <= set(container["readinessProbe"])
            secrets = {
                e["valueFrom"]["secretKeyRef"]["name"]: e["valueFrom"]["secretKeyRef"]
                for e in container["env"]
                if "valueFrom" in e
            }
            # The token secret and the checkpoint key come from Secrets, never the
            # development ones in the source (AUDIT-3).
            expected = {"tavolo-tokens", "tavolo-checkpoints", f"tavolo-db-{name}"}
            if name == "lobby":
                assert secrets["tavolo-operator"]["optional"] is True
                expected.add("tavolo-operator")
            assert set(secrets) == expected
            names = {e["name"] for e in container["env"] if "valueFrom" in e}
            assert {"TAVOLO_TOKEN_SECRET", "TAVOLO_CHECKPOINT_KEY"} <= names


def test_the_first_operator_comes_from_an_optional_secret(rendered: dict[str, str]) -> None:
    """PLAT-5: a new cluster gets its first operator from Secret tavolo-operator, in the form
    the lobby reads (TAVOLO_LOBBY_OPERATOR, nickname:password); without it the lobby still
    starts (the Secret is optional)."""
    (lobby,) = [
        d
        for d in _resources(rendered["overlays/prod"], "Deployment")
        if d["metadata"]["name"] == "lobby"
    ]
    (container,) = lobby["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e for e in container["env"]}
    assert env["TAVOLO_LOBBY_OPERATOR"]["valueFrom"]["secretKeyRef"] == {
        "name": "tavolo-operator",
        "key": "account",
        "optional": True,
    }
    readme = (K8S.parent / "README.md").read_text()
    assert "secret generic tavolo-operator --from-literal=account=" in readme


def test_every_namespaced_resource_lands_in_the_tavolo_namespace(
    rendered: dict[str, str],
) -> None:
    """The components' resources too: a NetworkPolicy applied to another namespace than
    the pods' protects nothing."""
    cluster_scoped = {"Namespace", "PriorityClass"}
    for overlay in ("overlays/dev", "overlays/prod", "infra"):
        for resource in yaml.safe_load_all(rendered[overlay]):
            if resource["kind"] in cluster_scoped:
                continue
            where = (overlay, resource["kind"], resource["metadata"]["name"])
            assert resource["metadata"].get("namespace") == "tavolo", where


SERVICE_PODS = [
    Pod(name, {"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "tavolo"})
    for name in SERVICES
]
DATA_PODS = [
    Pod(
        f"tavolo-db-{n}",
        {
            "cnpg.io/cluster": "tavolo-db",
            "cnpg.io/podRole": "instance",
            "cnpg.io/instanceName": f"tavolo-db-{n}",
        },
    )
    for n in (1, 2)
] + [
    Pod(
        "pooler",
        {
            "cnpg.io/poolerName": "tavolo-db-pooler",
            "cnpg.io/podRole": "pooler",
            "app.kubernetes.io/part-of": "tavolo-data",
        },
    )
]
OUTSIDE_PODS = [
    Pod("cnpg-operator", {"app.kubernetes.io/name": "cloudnative-pg"}, "cnpg-system"),
    Pod("prometheus", {"app.kubernetes.io/name": "prometheus"}, "monitoring"),
    Pod("gateway", {"app": "proxy"}, "gateway", {"tavolo.io/gateway": "true"}),
    Pod("stranger", {"app.kubernetes.io/name": "lobby"}, "elsewhere"),
    Pod("stranger-here", {"app": "debug"}),
]
PORTS = (
    53,
    443,
    4222,
    4317,
    5432,
    6443,
    8000,
    9127,
    9187,
    *range(50051, 50055),
    *range(9151, 9155),
)


@pytest.mark.parametrize("overlay", ["overlays/dev", "overlays/prod"])
def test_postgresql_takes_exactly_5432_from_the_services_that_use_it(
    rendered: dict[str, str], overlay: str
) -> None:
    """PLAT-5: default deny covers the CloudNativePG instances and the PgBouncer pooler as
    well, and every pod-to-pod connection they accept, tried over every pod and port here,
    is one on the list: 5432 from the lobby and engine (direct) and from the pooler and the
    other instance into the instances, 5432 from the wallet and leaderboard into the
    pooler, the operator's 5432 and 8000, Prometheus on the exporters."""
    policies = _resources(rendered[overlay], "NetworkPolicy")
    pods = SERVICE_PODS + DATA_PODS + OUTSIDE_PODS
    for pod in SERVICE_PODS + DATA_PODS:
        assert covered(policies, pod, "Ingress") and covered(policies, pod, "Egress"), pod
    accepted = {
        (source.name, target.name, port)
        for target in DATA_PODS
        for source in pods
        if source != target
        for port in PORTS
        if allows(policies, source, target, port)
    }
    instances = ("tavolo-db-1", "tavolo-db-2")
    expected = {
        (source, target, 5432)
        for target in instances
        for source in ("lobby", "engine", "pooler", *instances)
        if source != target
    }
    expected |= {("wallet", "pooler", 5432), ("leaderboard", "pooler", 5432)}
    expected |= {("cnpg-operator", t, p) for t in instances for p in (5432, 8000)}
    expected |= {("cnpg-operator", "pooler", 8000)}
    expected |= {("prometheus", t, 9187) for t in instances} | {("prometheus", "pooler", 9127)}
    assert accepted == expected, (accepted - expected, expected - accepted)
    for service in SERVICE_PODS:
        assert allows(policies, service, OUTSIDE_PODS[0], 5432) is False


def test_the_services_reach_the_trace_collector_only_in_prod(rendered: dict[str, str]) -> None:
    """The tracing component sets the OTLP endpoint to the collector's Service and lets
    the services (and nothing else of the namespace) reach it."""
    prod = rendered["overlays/prod"]
    (config,) = [
        c for c in _resources(prod, "ConfigMap") if c["metadata"]["name"] == "tavolo-config"
    ]
    endpoint = config["data"]["OTEL_EXPORTER_OTLP_ENDPOINT"]
    assert 0 < float(config["data"]["OTEL_TRACES_SAMPLER_ARG"]) <= 1
    (service,) = [
        s for s in _resources(prod, "Service") if s["metadata"]["name"] == "otel-collector"
    ]
    assert endpoint == f"http://otel-collector:{service['spec']['ports'][0]['port']}"
    collector = Pod("otel-collector", service["spec"]["selector"])
    policies = _resources(prod, "NetworkPolicy")
    for pod in SERVICE_PODS:
        assert allows(policies, pod, collector, 4317)
    for pod in DATA_PODS + OUTSIDE_PODS:
        assert not allows(policies, pod, collector, 4317), pod
    dev = rendered["overlays/dev"]
    assert "OTEL_EXPORTER_OTLP_ENDPOINT" not in dev


def _nats_values() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((K8S / check_manifests.NATS_VALUES).read_text())
    return loaded


def test_nats_runs_three_jetstream_nodes_for_the_three_replica_stream(
    rendered: dict[str, str],
) -> None:
    """The events stream asks for TAVOLO_NATS_REPLICAS copies: the cluster has as many
    JetStream nodes, spread over zones and hosts, at most one down at a time."""
    values = _nats_values()
    (config,) = [
        c
        for c in _resources(rendered["overlays/prod"], "ConfigMap")
        if c["metadata"]["name"] == "tavolo-config"
    ]
    replicas = int(config["data"]["TAVOLO_NATS_REPLICAS"])
    assert values["config"]["cluster"] == {"enabled": True, "replicas": replicas}
    assert replicas == 3
    assert values["config"]["jetstream"]["enabled"] is True
    assert set(values["podTemplate"]["topologySpreadConstraints"]) == {
        "topology.kubernetes.io/zone",
        "kubernetes.io/hostname",
    }
    assert values["podDisruptionBudget"]["enabled"] is True


def test_a_misspelt_or_mistyped_nats_value_is_a_finding(tmp_path: Path) -> None:
    base = tmp_path / "k8s"
    shutil.copytree(K8S, base)
    assert list(check_manifests.helm_values_findings(base)) == []
    values = _nats_values()
    values["config"]["jetstream"]["fileStorage"] = {"size": "10Gi"}  # the 0.x name
    values["config"]["cluster"]["replicas"] = "3"
    values["promExporter"]["serviceMonitor"] = {"enabled": True}
    (base / check_manifests.NATS_VALUES).write_text(yaml.safe_dump(values))
    findings = [str(f) for f in check_manifests.helm_values_findings(base)]
    assert any("fileStorage" in f for f in findings), findings
    assert any("config.cluster.replicas" in f for f in findings), findings
    assert any("serviceMonitor" in f for f in findings), findings


def test_the_containerfile_lint_catches_a_bad_instruction(tmp_path: Path) -> None:
    assert list(check_manifests.containerfile_findings()) == []
    broken = tmp_path / "Containerfile"
    shutil.copy(check_manifests.CONTAINERFILE.parent / ".hadolint.yaml", tmp_path)
    text = check_manifests.CONTAINERFILE.read_text()
    broken.write_text(text.replace("USER 10001", "USER root\nRUN cd /tmp && ls"))
    codes = {str(f).split()[1] for f in check_manifests.containerfile_findings(broken)}
    assert {"DL3002", "DL3003"} <= codes, codes


def test_the_alerts_watch_metrics_that_exist(rendered: dict[str, str]) -> None:
    """A rule on a misspelt metric or label never fires: every metric of every rule is one
    the services export (or NATS's exporter), every label it matches on one it carries."""
    exported = _exported() | EXTERNAL_METRICS
    (rules,) = _resources(rendered["overlays/prod"], "PrometheusRule")
    exprs = [rule["expr"] for group in rules["spec"]["groups"] for rule in group["rules"]]
    assert exprs
    for expr in exprs:
        refs = references(expr)
        assert refs, expr
        for metric, labels in refs:
            assert metric in exported, (expr, metric)
            assert labels <= exported[metric] | SCRAPE_LABELS, (expr, metric, labels)


def test_prod_spreads_every_service_across_zones_and_dev_runs_one_replica(
    rendered: dict[str, str],
) -> None:
    prod, dev = rendered["overlays/prod"], rendered["overlays/dev"]
    assert prod.count("topologyKey: topology.kubernetes.io/zone") >= len(SERVICES)
    assert prod.count("priorityClassName: tavolo-online") == len(SERVICES)
    assert dev.count("replicas: 1") == len(SERVICES)


DASHBOARDS = K8S / "components" / "monitoring" / "dashboards"
EXTERNAL_METRICS = {"jetstream_consumer_num_pending": {"stream_name", "consumer_name"}}
"""Metrics of NATS's exporter (the chart's promExporter), not of the services."""
SCRAPE_LABELS = {"pod", "instance", "job", "namespace", "container", "endpoint"}
"""Labels Prometheus adds to every series it scrapes through the ServiceMonitor."""


def _exported() -> dict[str, set[str]]:
    """Every series name the services export, with its labels."""
    exported: dict[str, set[str]] = {}
    for metric in REGISTRY.collect():
        labels = set(getattr(REGISTRY._names_to_collectors.get(metric.name), "_labelnames", ()))
        if metric.type == "counter":
            exported[metric.name + "_total"] = labels
        elif metric.type == "histogram":
            for suffix in ("_bucket", "_sum", "_count"):
                exported[metric.name + suffix] = labels | ({"le"} if suffix == "_bucket" else set())
        else:
            exported[metric.name] = labels
    return exported


def _dashboards() -> dict[str, dict[str, Any]]:
    return {path.stem: json.loads(path.read_text()) for path in sorted(DASHBOARDS.glob("*.json"))}


def _queries(board: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (panel["title"], target["expr"])
        for panel in board["panels"]
        for target in panel.get("targets", [])
    ]


def test_every_dashboard_panel_reads_metrics_the_services_export() -> None:
    """OPS-2: a panel on a misspelt metric or label stays empty for ever: every metric of
    every query is one the services export (or NATS's exporter), every label it matches
    on is one that metric carries."""
    exported = _exported() | EXTERNAL_METRICS
    assert "tavolo_tables_in_play" in exported and "tavolo_db_pool_in_use" in exported
    read = set()
    for name, board in _dashboards().items():
        queries = _queries(board)
        assert queries, name
        for title, expr in queries:
            refs = references(expr)
            assert refs, (name, title, expr)
            for metric, labels in refs:
                assert metric in exported, (name, title, metric)
                assert labels <= exported[metric] | SCRAPE_LABELS, (name, title, metric, labels)
                read.add(metric)
    assert {"tavolo_outbox_backlog", "tavolo_rpc_seconds_bucket"} <= read


def test_the_promql_reader_finds_a_misspelt_metric_or_label() -> None:
    assert references('sum by (le) (rate(tavolo_rpc_secnds_bucket{service="engine"}[5m]))') == [
        ("tavolo_rpc_secnds_bucket", frozenset({"service"}))
    ]
    assert references("max by (service) (tavolo_db_pool_in_use / tavolo_db_pool_max)") == [
        ("tavolo_db_pool_in_use", frozenset()),
        ("tavolo_db_pool_max", frozenset()),
    ]
    assert references('histogram_quantile(0.95, x{sevice=~"a|b", code!="OK"})') == [
        ("x", frozenset({"sevice", "code"}))
    ]


def test_one_dashboard_per_service_and_an_overview_loaded_by_grafana(
    rendered: dict[str, str],
) -> None:
    """OPS-2: the overview shows what an operator looks at first; each dashboard is a
    ConfigMap the Grafana sidecar picks up, with its own uid and distinct panel ids."""
    boards = _dashboards()
    assert set(boards) == {"overview", *SERVICES}
    maps = {
        c["metadata"]["name"]: c
        for c in _resources(rendered["overlays/prod"], "ConfigMap")
        if c["metadata"].get("labels", {}).get("grafana_dashboard") == "1"
    }
    assert set(maps) == {f"tavolo-dashboard-{name}" for name in boards}
    for name, board in boards.items():
        assert json.loads(maps[f"tavolo-dashboard-{name}"]["data"][f"{name}.json"]) == board
        ids = [panel["id"] for panel in board["panels"]]
        assert len(ids) == len(set(ids)), name
    assert len({board["uid"] for board in boards.values()}) == len(boards)
    overview = {title: expr for title, expr in _queries(boards["overview"])}
    wanted = {
        "Tables in play": "tavolo_tables_in_play",
        "Actions per second": 'method="Act"',
        "Act latency": "tavolo_rpc_seconds_bucket",
        "Consumer lag": "jetstream_consumer_num_pending",
        "Outbox backlog": "tavolo_outbox_backlog",
        "Timers overdue": "tavolo_timer_overdue_seconds",
        "Refusals by code": 'code!="OK"',
        "Database pool saturation": "tavolo_db_pool_in_use",
    }
    for title, needle in wanted.items():
        assert needle in overview[title], title
