"""Render and check every Kubernetes manifest of deploy/k8s, offline.

    .venv-deploy/bin/python tools/check_manifests.py        # exit 1 on any finding

Five checks, each by the tool made for it (installed by `make deploy-tools` into
``.venv-deploy``, apart from the project's own environment because checkov pins many
libraries of its own):

1. ``kubectl kustomize`` renders each overlay and the data services (``RENDERED``);
2. ``kubernetes-validate --strict`` checks every built-in resource against the API schema
   of each Kubernetes version we support, rejecting unknown fields; resources of the
   operators' CRDs have no schema there, so a kind outside ``CRD_KINDS`` is an error (a
   typo in ``kind`` or ``apiVersion`` would otherwise pass as "no schema");
3. ``checkov`` lints the security posture, with the checks we skip and why in
   ``deploy/k8s/.checkov.yaml``;
4. the NATS chart's values (``infra/nats-values.yaml``, applied with Helm, not Kustomize)
   are validated by ``jsonschema`` against ``infra/nats-values.schema.json``: the chart
   ships no schema of its own and ignores a key it does not know, so the schema lists the
   chart's keys that the file may set, each typed as in the chart's values.yaml;
5. ``hadolint`` lints the image's ``deploy/Containerfile`` (ignored rules and why:
   ``deploy/.hadolint.yaml``).

A finding names the file, the resource and what is wrong.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"
CONTAINERFILE = ROOT / "deploy" / "Containerfile"
NATS_VALUES = "infra/nats-values.yaml"
NATS_SCHEMA = "infra/nats-values.schema.json"
TOOLS = ROOT / ".venv-deploy" / "bin"

RENDERED = ("overlays/dev", "overlays/prod", "infra")
"""What an operator applies: each is rendered and checked whole."""

KUBERNETES_VERSIONS = ("1.32.0", "1.33.0", "1.34.0", "1.35.0", "1.36.0", "1.37.0")
"""The Kubernetes versions we support (native gRPC probes and the preStop sleep need 1.32)."""

CRD_KINDS = frozenset(
    {
        ("gateway.networking.k8s.io/v1", "Gateway"),
        ("gateway.networking.k8s.io/v1", "GRPCRoute"),
        ("keda.sh/v1alpha1", "ScaledObject"),
        ("monitoring.coreos.com/v1", "ServiceMonitor"),
        ("monitoring.coreos.com/v1", "PrometheusRule"),
        ("postgresql.cnpg.io/v1", "Cluster"),
        ("postgresql.cnpg.io/v1", "Database"),
        ("postgresql.cnpg.io/v1", "Pooler"),
        ("postgresql.cnpg.io/v1", "ScheduledBackup"),
    }
)
"""Kinds from the operators we depend on; no offline schema exists for them."""


@dataclass(frozen=True)
class Finding:
    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


def tool(name: str) -> str:
    path = TOOLS / name
    if not path.exists():
        raise SystemExit(f"{path} is missing: run `make deploy-tools` first")
    return str(path)


def render(target: Path) -> str:
    """The YAML ``kubectl kustomize`` builds from ``target``."""
    result = subprocess.run(
        [tool("kubectl"), "kustomize", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RenderError(f"{target}: kustomize failed: {result.stderr.strip()}")
    return result.stdout


class RenderError(Exception):
    """An overlay does not build."""


def schema_findings(
    name: str, rendered: Path, versions: Iterable[str] = KUBERNETES_VERSIONS
) -> Iterator[Finding]:
    """kubernetes-validate --strict for each of ``versions``."""
    for version in versions:
        result = subprocess.run(
            [tool("kubernetes-validate"), "--strict", "--quiet", "-k", version, str(rendered)],
            capture_output=True,
            text=True,
            check=False,
        )
        for line in (result.stdout + result.stderr).splitlines():
            if not line.strip():
                continue
            missing = re.search(r"find schema for kind (\S+) with api version (\S+)", line)
            if missing and (missing.group(2), missing.group(1)) in CRD_KINDS:
                continue
            yield Finding(f"{name} (Kubernetes {version})", line.strip())
        if result.returncode != 0 and not (result.stdout + result.stderr).strip():
            yield Finding(f"{name} (Kubernetes {version})", "kubernetes-validate failed")


def checkov_findings(rendered: dict[str, str]) -> Iterator[Finding]:
    """checkov over every rendered file at once, skipping what .checkov.yaml explains."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in rendered.items():
            (Path(folder) / (name.replace("/", "-") + ".yaml")).write_text(text)
        result = subprocess.run(
            [
                tool("checkov"),
                "--config-file",
                str(K8S / ".checkov.yaml"),
                "--directory",
                folder,
                "--output",
                "json",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    try:
        reports = json.loads(result.stdout)
    except json.JSONDecodeError:
        yield Finding("checkov", f"did not run: {result.stderr.strip()[-500:]}")
        return
    for report in reports if isinstance(reports, list) else [reports]:
        for failed in report.get("results", {}).get("failed_checks", []):
            yield Finding(
                f"{Path(failed['file_path']).name} {failed['resource']}",
                f"{failed['check_id']} {failed['check_name']}",
            )


_VALIDATE_VALUES = """
import json, sys, yaml, jsonschema
schema = json.load(open(sys.argv[1]))
values = yaml.safe_load(open(sys.argv[2])) or {}
validator = jsonschema.Draft202012Validator(schema)
for error in sorted(validator.iter_errors(values), key=lambda e: list(e.absolute_path)):
    where = ".".join(str(part) for part in error.absolute_path) or "(top)"
    print(f"{where}: {error.message}")
"""


def helm_values_findings(base: Path = K8S) -> Iterator[Finding]:
    """The NATS chart's values checked against the chart's keys (the schema file)."""
    result = subprocess.run(
        [tool("python"), "-c", _VALIDATE_VALUES, str(base / NATS_SCHEMA), str(base / NATS_VALUES)],
        capture_output=True,
        text=True,
        check=False,
    )
    for line in result.stdout.splitlines():
        yield Finding(NATS_VALUES, line)
    if result.returncode != 0:
        yield Finding(NATS_VALUES, f"could not be validated: {result.stderr.strip()[-500:]}")


def containerfile_findings(containerfile: Path = CONTAINERFILE) -> Iterator[Finding]:
    """hadolint over the Containerfile, with deploy/.hadolint.yaml beside it."""
    result = subprocess.run(
        [
            tool("hadolint"),
            "--config",
            str(containerfile.parent / ".hadolint.yaml"),
            "--no-color",
            "--format",
            "json",
            str(containerfile),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        reports = json.loads(result.stdout)
    except json.JSONDecodeError:
        yield Finding(containerfile.name, f"hadolint did not run: {result.stderr.strip()[-500:]}")
        return
    for report in reports:
        yield Finding(
            f"{containerfile.name}:{report['line']}", f"{report['code']} {report['message']}"
        )


def check(
    targets: Iterable[str] = RENDERED,
    base: Path = K8S,
    versions: Iterable[str] = KUBERNETES_VERSIONS,
    containerfile: Path = CONTAINERFILE,
) -> list[Finding]:
    """Every finding over ``targets`` (folders under ``base``), the NATS values under
    ``base`` and ``containerfile``; empty when all is well."""
    findings: list[Finding] = []
    rendered: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in targets:
            try:
                text = render(base / name)
            except RenderError as exc:
                findings.append(Finding(name, str(exc)))
                continue
            rendered[name] = text
            path = Path(folder) / (name.replace("/", "-") + ".yaml")
            path.write_text(text)
            findings.extend(schema_findings(name, path, versions))
    findings.extend(checkov_findings(rendered))
    findings.extend(helm_values_findings(base))
    findings.extend(containerfile_findings(containerfile))
    return findings


def main() -> int:
    findings = check()
    for finding in findings:
        print(finding)
    print(
        f"{len(RENDERED)} manifests rendered, NATS values and Containerfile checked;"
        f" {len(findings)} findings"
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
