"""nav_rename tries its edits on the real servers before anything is written: a site
the rename leaves broken though it names nothing the rename touches (a class that
stood for a Protocol or an interface through the renamed method) is listed in
`notRenamed` (`error_after_rename`, with the error), and a rename that breaks
nothing stays complete with the files it tried counted."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.bridge.test_rename import _preview, _root
from tests.conftest import FIXTURES, require_binary


def test_renaming_a_protocol_implementers_method_lists_where_it_stood_for_the_protocol(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    root = _root(tmp_path, "ty")
    (root / "app" / "circle.py").write_text(
        "class Circle:\n    def area(self) -> float:\n        return 3.0\n"
    )
    (root / "app" / "sized.py").write_text(
        "from typing import Protocol\n\nfrom app.circle import Circle\n\n\n"
        "class Sized(Protocol):\n    def area(self) -> float: ...\n\n\n"
        "SIZED: Sized = Circle()\n"
    )
    data = _preview(root, "app/circle.py#Circle.area", "surface")
    left = {(s["path"], s["line"]): s for s in data["notRenamed"]}
    site = left.get(("app/sized.py", 10))
    assert site is not None, data
    assert (site["why"], site["text"]) == ("error_after_rename", "SIZED: Sized = Circle()")
    assert "Sized" in site["message"]
    assert data["completeness"] == "partial"
    assert data["trial"]["newErrors"] >= 1
    assert data["trial"]["checkedFiles"] >= 2


def test_renaming_a_classes_method_lists_where_it_stood_for_an_interface(
    tmp_path: Path,
) -> None:
    require_binary("typescript-language-server")
    root = tmp_path / "ts_app"
    shutil.copytree(FIXTURES / "ts_app", root)
    (root / "src" / "box.ts").write_text(
        'export class Box {\n  label(): string {\n    return "box";\n  }\n}\n'
    )
    (root / "src" / "named.ts").write_text(
        'import { Box } from "./box";\n\nexport interface Named {\n  label(): string;\n}\n\n'
        "export const named: Named = new Box();\n"
    )
    data = _preview(root, "src/box.ts#Box.label", "title")
    left = {(s["path"], s["line"]): s for s in data["notRenamed"]}
    assert left.get(("src/named.ts", 7), {}).get("why") == "error_after_rename", data
    assert data["completeness"] == "partial"


def test_a_rename_that_breaks_nothing_is_complete_and_says_what_it_tried(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    root = _root(tmp_path, "ty")
    data = _preview(root, "app/shapes.py#total_area", "sum_areas")
    assert data["notRenamed"] == []
    assert data["completeness"] == "complete"
    assert data["trial"]["newErrors"] == 0
    assert data["trial"]["notChecked"] == []
    assert data["trial"]["checkedFiles"] >= 2
