"""The docs check catches what it is for: a command that exits otherwise than
documented, an unknown option, a configuration that does not load, a block
nobody runs, a marker that marks nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.docs.pages import page
from tests.docs.run import Ran, run_page
from tests.docs.synopsis import command_problems, script_problems

PAGE = """\
# A page

```bash
codeanchor memory list
codeanchor memory list   # exit 1: it does not
```

<!-- not run: needs a database -->
```sql
SELECT 1;
```

```sql
SELECT 2;
```

```toml
[tool.codeanchor]
budget = 10
```

```json
{"almost": json}
```

<!-- not run: a marker with no block after it -->

Some text.
"""


def run(tmp_path: Path, text: str) -> tuple[Ran, list[str]]:
    path = tmp_path / "page.md"
    path.write_text(text)
    ran = asyncio.run(run_page(page(path), tmp_path / "scratch"))
    return ran, [problem.split(": ", 1)[1] for problem in ran.problems]


def test_each_wrong_block_is_a_problem_and_marked_ones_are_not_run(tmp_path: Path) -> None:
    ran, problems = run(tmp_path, PAGE)
    assert [problem.splitlines()[0] for problem in problems] == [
        "`codeanchor memory list   # exit 1: it does not` exited 0 (documented: 1)",
        "a ```sql block must be marked <!-- not run: why -->",
        "the configuration does not load: "
        f"{tmp_path}/scratch/config-17/pyproject.toml [tool.codeanchor]: unknown key(s) "
        "budget; known: budget_tokens, output_schemas, stale_hint_after, tools, watch",
        "not JSON: Expecting value: line 1 column 12 (char 11)",
    ]
    assert [block.line for block in ran.checked] == [3, 17, 22]  # the sql blocks are not
    assert [marker.line for marker in page(tmp_path / "page.md").stray_markers] == [26]


def test_a_synopsis_names_real_commands_and_options() -> None:
    assert command_problems("codeanchor nav def|refs TARGET [--name NAME]") == []
    assert command_problems("codeanchor trust [--status | --revoke]   # exit 1") == []
    assert command_problems("codeanchor map seach Q") == [
        "`codeanchor map seach Q`: `codeanchor map seach` is no command"
    ]
    assert command_problems("codeanchor memory recall Q --stale") == [
        "`codeanchor memory recall Q --stale`: `codeanchor memory recall` takes no --stale"
    ]
    assert script_problems(".venv/bin/python scripts/bench_map.py [--runs 3] [--fast]") == [
        "`.venv/bin/python scripts/bench_map.py [--runs 3] [--fast]`: "
        "no script under scripts/ defines --fast"
    ]
