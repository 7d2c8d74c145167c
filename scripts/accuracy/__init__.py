"""Helpers of scripts/bench_accuracy.py: the pinned corpora, the parse-based
ground truth, the symbol sample, and the measurement through codeanchor's tools."""
