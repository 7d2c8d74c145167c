#!/usr/bin/env bash
# Sets everything up, then runs the linters, the type checker and the test suite.
# Extra arguments go to pytest (e.g. scripts/test.sh -k sync -x).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
echo "[test] ruff" >&2
ruff check .
ruff format --check .
echo "[test] mypy --strict" >&2
mypy
echo "[test] pytest" >&2
exec pytest "$@"
