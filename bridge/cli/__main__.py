"""`python -m bridge.cli`: the same as the `codeanchor` command."""

import sys

from bridge.cli.main import main

sys.exit(main())
