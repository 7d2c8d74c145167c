"""The modules of scripts/bench_map.py: corpora, measures, child processes, report."""
