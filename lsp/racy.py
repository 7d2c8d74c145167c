"""When a stat key can vouch for a file's content (git's "racy clean" problem).

File timestamps are coarse (a kernel tick; a second or two on some file
systems), so a file written twice within one tick, to the same size, keeps
its stat key. A key recorded within `RACY_WINDOW_NS` of the file's last
mtime or ctime cannot tell such writes apart: the file is hashed again at the
next check, until its key is old enough to be trusted.
"""

from __future__ import annotations

from disk.stamps import FileStamp

RACY_WINDOW_NS = 2_000_000_000


def settled(stamp: FileStamp, seen_ns: int) -> bool:
    """True when `stamp`, taken at wall-clock `seen_ns`, proves the content unchanged
    for as long as the stamp stays the same."""
    return seen_ns - max(stamp.mtime_ns, stamp.ctime_ns) > RACY_WINDOW_NS
