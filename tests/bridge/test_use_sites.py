"""Where a map edge's use is written, for `verify` to ask the live server there."""

from __future__ import annotations

from pathlib import Path

from map import CodeMap, MapSettings
from verify import use_site


def test_a_function_taken_as_a_value_has_its_use_site(tmp_path: Path) -> None:
    """A C function pointer is a `calls` edge (as clangd's call hierarchy counts it); its
    use site is where the function is named, so `verify` can check the edge."""
    (tmp_path / "main.c").write_text(
        "static int handler(int x) { return x; }\n"
        "static void run(int (*f)(int)) { f(1); }\n"
        "int main(void) {\n"
        "  run(handler);\n"
        "  return 0;\n"
        "}\n"
    )
    code_map = CodeMap.open(tmp_path, MapSettings())
    site = use_site(code_map, "main.c#main", "main.c#handler", "calls")
    assert site is not None
    assert (site.path, site.line + 1, site.character) == ("main.c", 4, 6)
    assert site.target_lines == (1, 1)
