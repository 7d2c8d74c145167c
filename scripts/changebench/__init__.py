"""Parts of scripts/bench_change_time.py: the checkers and the scripted changes."""
