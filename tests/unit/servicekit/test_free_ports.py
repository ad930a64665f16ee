"""Ports for the embedded NATS cluster's nodes (OPS-3): chosen together, never twice."""

from __future__ import annotations

import socket

from tavolo.servicekit.embedded import free_ports


def test_ports_chosen_together_are_distinct_and_free() -> None:
    for count in (1, 2, 6, 40):
        ports = free_ports(count)
        assert len(ports) == count
        assert len(set(ports)) == count
        for port in ports:  # each still free to bind once they are handed out
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.bind(("127.0.0.1", port))
