"""Reproducible training of the reader's models (needs the `train` extra: torch, onnx). The runtime never imports this."""
