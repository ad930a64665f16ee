# Generated from protos/ by tools/gen_protos.py (make protos). Do not edit.
"""Protobuf messages and gRPC stubs of the Tavolo API (package tavolo.v1)."""
