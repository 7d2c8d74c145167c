"""Golden tests: extraction of one small fixture file per language.

Each golden file under tests/map/golden/ was generated once and checked by
hand line by line. To regenerate after an intended change, run with
CODEANCHOR_UPDATE_GOLDEN=1 and read every changed line before committing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from map.extraction.extract import extract_file
from map.model import FileExtract

FIXTURES = Path(__file__).parents[1] / "fixtures" / "extract"
GOLDEN = Path(__file__).parent / "golden"
SAMPLES = sorted(path for path in FIXTURES.glob("*/*") if path.is_file())


def golden_view(extract: FileExtract) -> dict[str, list[dict[str, object]]]:
    """What the golden files pin down: 1-based lines, LSP columns for names."""
    return {
        "symbols": [
            {
                "id": s.node_id,
                "kind": s.kind,
                "lines": [s.range.first_line, s.range.last_line],
                "name_at": [s.selection.first_line, s.selection.start_char],
            }
            | ({"declaration": True} if s.declaration else {})
            for s in extract.symbols
        ],
        "imports": [
            {
                "module": i.module,
                "names": [list(pair) for pair in i.names],
                "line": i.range.first_line,
            }
            for i in extract.imports
        ],
        "references": [
            {
                "name": r.name,
                "kind": r.kind,
                "qualifier": r.qualifier,
                "scope": r.scope,
                "at": [r.range.first_line, r.range.start_char],
            }
            for r in extract.references
        ],
    }


def render(view: dict[str, list[dict[str, object]]]) -> str:
    """JSON with one entry per line, so a reviewer can check each."""
    sections = []
    for key, entries in view.items():
        lines = ",\n".join("    " + json.dumps(entry, ensure_ascii=False) for entry in entries)
        sections.append(f'  "{key}": [\n{lines}\n  ]' if entries else f'  "{key}": []')
    return "{\n" + ",\n".join(sections) + "\n}\n"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.parent.name)
def test_extraction_matches_golden(sample: Path) -> None:
    relative = sample.relative_to(FIXTURES).as_posix()
    view = golden_view(extract_file(relative, sample.read_bytes()))
    golden = GOLDEN / f"{sample.parent.name}.json"
    if os.environ.get("CODEANCHOR_UPDATE_GOLDEN"):
        golden.write_text(render(view), encoding="utf-8")
    assert view == json.loads(golden.read_text(encoding="utf-8"))


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.parent.name)
def test_a_file_cut_mid_way_still_yields_symbols(sample: Path) -> None:
    relative = sample.relative_to(FIXTURES).as_posix()
    data = sample.read_bytes()
    cut = data[: len(data) * 6 // 10].decode("utf-8", errors="ignore").encode("utf-8")
    whole = extract_file(relative, data)
    partial = extract_file(relative, cut)
    found = {s.name for s in partial.symbols}
    assert found
    assert found <= {s.name for s in whole.symbols}
