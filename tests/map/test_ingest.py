"""A scan through the process pool finds what one in-process scan finds."""

from __future__ import annotations

from pathlib import Path

from map.intake.ingest import ScanOptions, scan
from map.intake.load import POOL_THRESHOLD
from map.intake.wire import extract_blob, unpacked

SOURCES = {
    "py": 'import os\n\nclass Store{n}(Base):\n    """Doc."""\n\n'
    '    def get(self, key: str) -> "Store{n}":\n'
    "        return os.path.join(key, helper{n}())\n\n\ndef helper{n}():\n    return 'é{n}'\n",
    "go": "package p\n\nfunc Run{n}() int {{ return Helper() }}\n",
    "ts": "export class View{n} extends Base {{ render() {{ return draw{n}(); }} }}\n",
}


def _repo(root: Path) -> None:
    for n in range(POOL_THRESHOLD + 10):
        ext = list(SOURCES)[n % len(SOURCES)]
        (root / f"m{n}.{ext}").write_text(SOURCES[ext].format(n=n), encoding="utf-8")
    (root / "broken.py").write_bytes(b"\xff\xfe not utf-8")


def test_pool_scan_equals_in_process_scan(tmp_path: Path) -> None:
    _repo(tmp_path)
    found = {
        workers: scan(tmp_path, ScanOptions(1_000_000, (), workers, ".codeanchor"), {}, {})
        for workers in (1, 2)
    }
    pooled, alone = found[2], found[1]
    assert len(alone.extracts) == POOL_THRESHOLD + 10
    assert pooled.extracts == alone.extracts
    assert pooled.stamps == alone.stamps
    assert pooled.skipped == alone.skipped
    assert pooled.skipped["broken.py"][1] == alone.skipped["broken.py"][1]
    references = {p: [r.lookup(i) for i in range(len(r))] for p, r in pooled.references.items()}
    assert references == {
        p: [r.lookup(i) for i in range(len(r))] for p, r in alone.references.items()
    }
    assert any(e.symbols and references[p] for p, e in pooled.extracts.items())
    # the linker keeps what the workers sent, packed: the whole extract, of which the
    # scan holds what the linker takes in (every reference as columns)
    assert pooled.packed.keys() == pooled.extracts.keys() == pooled.references.keys()
    for path, packed in pooled.packed.items():
        whole = unpacked(path, packed)
        assert whole.symbols == pooled.extracts[path].symbols
        assert [(r.scope, r.name, r.qualifier, r.kind) for r in whole.references] == references[
            path
        ]


def test_wire_round_trip_keeps_equal_extracts(tmp_path: Path) -> None:
    _repo(tmp_path)
    found = scan(tmp_path, ScanOptions(1_000_000, (), 1, ".codeanchor"), {}, {})
    extracts = list(found.extracts.values())
    assert [unpacked(e.path, extract_blob(e)) for e in extracts] == extracts
