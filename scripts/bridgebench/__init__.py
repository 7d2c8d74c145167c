"""The modules of scripts/bench_bridge.py: corpus, targets, cases, measuring, report."""
