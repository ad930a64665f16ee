"""What a set of NetworkPolicies lets through, evaluated as Kubernetes does: traffic from
pod A to pod B on a port passes when A's egress and B's ingress both allow it; a pod
selected by no policy of a direction is open in that direction, a selected one is closed
but for what some policy's rules allow (the union of all of them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Labels = Mapping[str, str]


@dataclass(frozen=True)
class Pod:
    name: str
    labels: Labels
    namespace: str = "tavolo"
    namespace_labels: Labels = field(default_factory=dict)

    def namespace_labels_or_default(self) -> Labels:
        return {"kubernetes.io/metadata.name": self.namespace, **self.namespace_labels}


def selects(selector: Mapping[str, Any], labels: Labels) -> bool:
    """A LabelSelector (matchLabels and matchExpressions In/NotIn/Exists/DoesNotExist)."""
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator = expression["key"], expression["operator"]
        values = expression.get("values", [])
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and labels.get(key) in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True


def _peer_matches(peer: Mapping[str, Any], policy_namespace: str | None, other: Pod) -> bool:
    if "ipBlock" in peer:
        return False  # no pod here is addressed by IP
    if "namespaceSelector" in peer:
        if not selects(peer["namespaceSelector"], other.namespace_labels_or_default()):
            return False
    elif other.namespace != policy_namespace:
        return False
    return "podSelector" not in peer or selects(peer["podSelector"], other.labels)


def _port_matches(rule: Mapping[str, Any], port: int, protocol: str) -> bool:
    ports = rule.get("ports")
    if not ports:
        return True
    return any(
        p.get("protocol", "TCP") == protocol and ("port" not in p or p["port"] == port)
        for p in ports
    )


def _direction_allows(
    policies: list[dict[str, Any]], pod: Pod, other: Pod, port: int, protocol: str, way: str
) -> bool:
    kind, peers = ("Ingress", "from") if way == "ingress" else ("Egress", "to")
    applying = [
        p
        for p in policies
        if p["metadata"].get("namespace") == pod.namespace
        and selects(p["spec"]["podSelector"], pod.labels)
        and kind in p["spec"].get("policyTypes", ["Ingress"])
    ]
    if not applying:
        return True
    for policy in applying:
        namespace = policy["metadata"].get("namespace")
        for rule in policy["spec"].get(way) or []:
            if not _port_matches(rule, port, protocol):
                continue
            if peers not in rule or any(
                _peer_matches(peer, namespace, other) for peer in rule[peers]
            ):
                return True
    return False


def allows(
    policies: list[dict[str, Any]], source: Pod, target: Pod, port: int, protocol: str = "TCP"
) -> bool:
    """Whether ``source`` may open a connection to ``target`` on ``port``."""
    return _direction_allows(
        policies, source, target, port, protocol, "egress"
    ) and _direction_allows(policies, target, source, port, protocol, "ingress")


def covered(policies: list[dict[str, Any]], pod: Pod, kind: str) -> bool:
    """Whether some policy selects ``pod`` for ``kind`` (Ingress or Egress)."""
    return any(
        p["metadata"].get("namespace") == pod.namespace
        and selects(p["spec"]["podSelector"], pod.labels)
        and kind in p["spec"].get("policyTypes", ["Ingress"])
        for p in policies
    )
