"""`python -m bridge.cli`: the same as the `codeanchor` command."""

import sys

from bridge.cli.main import main

# the guard matters: the map's extraction pool re-imports the main module
if __name__ == "__main__":
    sys.exit(main())
