"""How a language server is started so that it dies with this process.

On Linux a server is started through `_DIE_WITH_PARENT`, which asks the
kernel to kill it when the process that started it dies, then becomes the
server (exec): no server outlives codeanchor, even one killed with SIGKILL.
"""

from __future__ import annotations

import os
import sys

# argv: parent pid, executable, its arguments. PR_SET_PDEATHSIG (1) survives exec;
# a parent that died before the call is caught by the pid check.
_DIE_WITH_PARENT = """\
import ctypes, os, signal, sys
ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)
os.execv(sys.argv[2], sys.argv[2:])
"""


def launch_command(executable: str, *arguments: str) -> tuple[str, ...]:
    """The command that runs `executable` so that it dies with this process (Linux)."""
    if sys.platform != "linux":
        return (executable, *arguments)
    guard = (sys.executable, "-I", "-S", "-c", _DIE_WITH_PARENT, str(os.getpid()))
    return (*guard, executable, *arguments)
