"""TypeScript calls the map used to miss or invent: real maps of a small TypeScript
repository asked through the real tools on a real AppContext.

A component rendered as a JSX element is called there (the TypeScript server counts
`<Counter />` in its call hierarchy); `await mount<T>(tag)` calls `mount` (the grammar
reads it as a call of `await mount`); an object literal's method binds no name, so a
bare `test(...)` in its file is the imported library's `test`, not that method.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bridge.test_map_completeness import _ask, _callers, _repo

SOURCES = {
    "package.json": '{"name": "demo", "type": "module"}\n',
    "tsconfig.json": '{"compilerOptions": {"jsx": "react-jsx", "strict": true}}\n',
    "src/counter.tsx": "export function Counter() {\n  return <div />\n}\n",
    "src/app.tsx": (
        "import {Counter} from './counter'\n"  # 1
        "export function App() {\n"  # 2
        "  return <section><Counter /></section>\n"  # 3
        "}\n"
    ),
    "src/mount.ts": (
        "export async function mount<T>(tag: string): Promise<T> {\n  return tag as T\n}\n"
    ),
    "test/run.ts": (
        "import test from 'ava'\n"  # 1
        "import {mount} from '../src/mount'\n"  # 2
        "\n"  # 3
        "test('mounts', async () => {\n"  # 4
        "  const element = await mount<string>('x')\n"  # 5
        "  const options = {\n"  # 6
        "    async test() {\n"  # 7
        "      return element\n"  # 8
        "    },\n"  # 9
        "  }\n"  # 10
        "  return options\n"  # 11
        "})\n"  # 12
        "test('again', async () => {})\n"  # 13
    ),
}


def _listed(data: dict[str, Any]) -> list[tuple[str, list[int]]]:
    return [(n["nodeId"], n["at"]) for n in data["neighbors"]]


def test_script_jsx_elements_generic_awaits_and_literal_methods(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    counter, mount, method = _ask(
        root,
        _callers("src/counter.tsx#Counter"),
        _callers("src/mount.ts#mount"),
        _callers("test/run.ts#test"),
    )
    data = counter["data"]
    assert _listed(data) == [("src/app.tsx#App", [3])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = mount["data"]
    assert _listed(data) == [("test/run.ts", [5])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = method["data"]
    assert _listed(data) == []
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
