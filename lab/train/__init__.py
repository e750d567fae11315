"""Reproducible training of the reader's models (`train` extra: torch, onnx); the runtime never imports it."""
