"""PHP callers through what a receiver holds: a real map of a small repository asked
through the real tool on a real AppContext; the truth is the fixture's, checked by
hand (and the same answers intelephense's go-to-definition gives at each call).

A method's declared return type (`function make(): Results`, `?Results` too) types
what its call returns, whether kept in a local (`$x = $this->make()`,
`$y = Router::create()`) or called on at once (`$this->make()->status()`); a typed
property (`private Results $res;`, a promoted constructor parameter) or one given
`new Results()` in a method types `$this->res`. So `status()` on them is
`Results.status`, never a guess between it and `Other.status`, and a property of a
library's type (`LoggerInterface`) holds no method of ours: its `info()` is left
outside, not guessed to be `Notes.info`. A receiver nothing types (an untyped
parameter) stays a guess, listed apart, and the answer says `partial`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _listed, _repo

ROUTER = """<?php
namespace App;

use Psr\\Log\\LoggerInterface;

class Results {
    public function status(): int { return 1; }
}

class Router {
    private Results $res;
    private ?Results $kept;
    private LoggerInterface $log;

    public function __construct(private Results $given, LoggerInterface $log) {
        $this->kept = new Results();
        $this->log = $log;
    }

    public function make(): Results { return new Results(); }

    public static function create(): ?Results { return new Results(); }

    public function route($any) {
        $x = $this->make();
        $x->status();
        $y = Router::create();
        $y->status();
        $this->res->status();
        $this->given->status();
        $this->kept->status();
        $this->make()->status();
        $this->log->info('routed');
        $any->flush();
        return self::create()->status();
    }
}
"""
OTHER = """<?php
namespace App;

class Other {
    public function status(): int { return 2; }
    public function flush(): void {}
}

class Notes {
    public function info(string $m): string { return $m; }
    public function note(): string { return $this->info('n'); }
}
"""
ASKED = {
    "src/Router.php#Results.status": [
        ("src/Router.php#Router.route", [26, 28, 29, 30, 31, 32, 35]),
    ],
    "src/Router.php#Router.make": [("src/Router.php#Router.route", [25, 32])],
    "src/Router.php#Router.create": [("src/Router.php#Router.route", [27, 35])],
    "src/Other.php#Other.status": [],
    "src/Other.php#Notes.info": [("src/Other.php#Notes.note", [11])],
    "src/Other.php#Other.flush": [],
}


def test_php_receivers_are_typed_by_return_types_and_properties(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", {"src/Router.php": ROUTER, "src/Other.php": OTHER})
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    answers = [
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in ASKED])
    ]
    assert {
        node_id: [(n["nodeId"], n["at"]) for n in data["neighbors"]]
        for node_id, data in zip(ASKED, answers, strict=True)
    } == ASKED
    assert [data["completeness"] for data in answers] == ["complete"] * 5 + ["partial"]
    flush = answers[-1]["unresolved"]
    assert [(s["line"], s["receiver"], s["why"]) for s in flush] == [(34, "$any", "guess")]


COMPOSER = {
    "src/Util/Factory.php": (
        "<?php\nnamespace Acme\\Cli\\Util;\n\n"
        "class Factory {\n    public function build(): int { return 1; }\n}\n"
    ),
    "tests/Util/ReaderTest.php": (
        "<?php\nnamespace Acme\\Cli\\Tests\\Util;\n\nclass ReaderTest {}\n"
    ),
    "tests/TestBase.php": (
        "<?php\nnamespace Acme\\Cli\\Tests;\n\n"
        "class TestBase {\n    protected function helper(): int { return 2; }\n}\n"
    ),
    "tests/Util/FactoryTest.php": (
        "<?php\nnamespace Acme\\Cli\\Tests\\Util;\n\n"
        "use Acme\\Cli\\Tests\\TestBase;\n"
        "use Acme\\Cli\\Util\\Factory;\n\n"
        "class FactoryTest extends TestBase {\n"
        "    public function testBuild() {\n"
        "        $f = new Factory();\n"
        "        return $f->build() + $this->helper();\n"
        "    }\n"
        "}\n"
    ),
}


def test_php_use_finds_the_class_file_where_composer_would(tmp_path: Path) -> None:
    """`use Acme\\Cli\\Util\\Factory` from tests/Util/ is src/Util/Factory.php, not a
    guess in tests/Util/ (the nearer directory of that name, which has no Factory),
    and `Acme\\Cli\\Tests\\TestBase` is tests/TestBase.php (Composer's usual
    `Acme\\Cli\\Tests\\` -> tests/): the test's calls are exact edges, the answers
    complete."""
    root = _repo(tmp_path / "repo", COMPOSER)
    asked = {
        "src/Util/Factory.php#Factory.build": [
            ("tests/Util/FactoryTest.php#FactoryTest.testBuild", [10])
        ],
        "tests/TestBase.php#TestBase.helper": [
            ("tests/Util/FactoryTest.php#FactoryTest.testBuild", [10])
        ],
    }
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    answers = [
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    ]
    assert {
        node_id: [(n["nodeId"], n["at"]) for n in data["neighbors"]]
        for node_id, data in zip(asked, answers, strict=True)
    } == asked
    assert [data["completeness"] for data in answers] == ["complete", "complete"]


DOCBLOCKS = """<?php
namespace App;

class Argument {
    public function hasPrefix(): bool { return true; }
}

class Flag {
    public function hasPrefix(): bool { return false; }
}

class Filter {
    /** @var Argument */
    private $first;

    /**
     * @param Argument|null $argument
     * @param int $n
     */
    public function noPrefix($argument, $n) {
        return !$argument->hasPrefix() && $this->first->hasPrefix();
    }

    /** @param array $all */
    public function any($all) { return $all->hasPrefix(); }

    /** @return Argument */
    public function head() { return $this->first; }

    /** @return $this */
    public function me() { return $this; }

    public function chain() { return $this->me()->head()->hasPrefix(); }
}
"""


def test_php_docblocks_type_untyped_parameters_and_properties(tmp_path: Path) -> None:
    """`@param Argument|null $argument`, a property's `@var Argument` and what a
    method without a declared return type says it returns (`@return Argument`,
    `@return $this`: its own class) type values as intelephense reads them:
    `hasPrefix()` on them is `Argument.hasPrefix`, not a guess beside
    `Flag.hasPrefix`; a scalar's tag (`@param array $all`) types
    nothing, so that call stays a guess and both answers say `partial` for it alone."""
    root = _repo(tmp_path / "repo", {"src/Filter.php": DOCBLOCKS})
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    asked = ["src/Filter.php#Argument.hasPrefix", "src/Filter.php#Flag.hasPrefix"]
    argument, flag = (
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    )
    assert [(n["nodeId"], n["at"]) for n in argument["neighbors"]] == [
        ("src/Filter.php#Filter.chain", [33]),
        ("src/Filter.php#Filter.noPrefix", [21]),
    ]
    assert flag["neighbors"] == []
    for data in (argument, flag):
        assert data["completeness"] == "partial"
        assert [(s["line"], s["receiver"], s["why"]) for s in data["unresolved"]] == [
            (25, "$all", "guess")
        ]


UNPLACED = {
    "src/FastRoute.php": (
        "<?php\nnamespace FastRoute;\n\n"
        "final class FastRoute {\n"
        "    public static function settings(): self { return new self(); }\n"
        "    public function info(): int { return 1; }\n"
        "}\n"
    ),
    "test/FastRouteTest.php": (
        "<?php\nnamespace FastRoute\\Test;\n\n"
        "use FastRoute\\FastRoute;\n"
        "use Psr\\Log\\Logger;\n\n"
        "class FastRouteTest {\n"
        "    public function testIt() {\n"
        "        Logger::info();\n"
        "        return FastRoute::settings()->info();\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_php_class_is_found_by_the_namespace_its_file_declares(tmp_path: Path) -> None:
    """No composer.json, and `FastRoute\\` names no folder (Composer would map it onto
    src/): src/FastRoute.php declares `namespace FastRoute;`, so `use
    FastRoute\\FastRoute` is that file, its calls exact edges and the answers
    complete; `Psr\\Log\\Logger`, which no file of the project declares, stays
    outside and `info()` on it is no use of ours."""
    root = _repo(tmp_path / "repo", UNPLACED)
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    asked = ["src/FastRoute.php#FastRoute.settings", "src/FastRoute.php#FastRoute.info"]
    answers = [
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    ]
    assert [_listed(data) for data in answers] == [
        [("test/FastRouteTest.php#FastRouteTest.testIt", [10])]
    ] * 2
    assert [data["completeness"] for data in answers] == ["complete", "complete"]


NARROWED = """<?php
namespace App;

use Psr\\EventDispatcher\\EventDispatcherInterface;

interface Registry {
    public function subscribe(string $e): void;
}

class Buffered {
    /** @var EventDispatcherInterface */
    private $inner;

    public function subscribe(string $e): void {
        if (!$this->inner instanceof Registry) {
            throw new \\LogicException('no');
        }
        $this->inner->subscribe($e);
    }

    public function dispatch(object $event): object {
        $this->inner->subscribe('x');
        return $this->inner->dispatch($event);
    }
}
"""


def test_php_instanceof_narrows_a_library_typed_receiver_to_ours(tmp_path: Path) -> None:
    """`$this->inner` is a library's EventDispatcherInterface; where a function checks
    it `instanceof Registry`, its `subscribe()` is Registry's (the interface's call,
    as intelephense reads it); in a function without the check it stays outside."""
    root = _repo(tmp_path / "repo", {"src/Buffered.php": NARROWED})
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    (data,) = (
        envelope["data"]
        for envelope in _ask(
            root, (map_neighbors, {"node_id": "src/Buffered.php#Registry.subscribe", **calls})
        )
    )
    assert _listed(data) == [("src/Buffered.php#Buffered.subscribe", [18])]
    assert data["completeness"] == "complete"


BUILDER = """<?php
namespace App;

class Builder {
    private bool $immutable = false;

    /** @return \\App\\Builder */
    public static function create() { return new self(); }

    /** @return \\App\\Builder */
    public function immutable() { $this->immutable = true; return $this; }

    public function make(): int { return 1; }
}

function build(): int {
    return Builder::create()->immutable()->make();
}
"""


def test_php_a_call_names_the_method_not_the_property_of_its_name(tmp_path: Path) -> None:
    """`->immutable()` calls the method `immutable`, not the property `$immutable` (node
    `Builder.immutable`, the method `Builder.immutable~2`): what the chain returns is
    the method's `@return`, so `make()` at its end is Builder's."""
    root = _repo(tmp_path / "repo", {"src/Builder.php": BUILDER})
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    asked = ["src/Builder.php#Builder.make", "src/Builder.php#Builder.immutable~2"]
    answers = [
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    ]
    assert [_listed(data) for data in answers] == [[("src/Builder.php#build", [17])]] * 2
    assert [data["completeness"] for data in answers] == ["complete", "complete"]


NAMESPACED = {
    "src/Shapes/Box.php": (
        "<?php\nnamespace App\\Shapes;\n\n"
        "class Box {\n"
        "    public function __construct(int $n) {}\n"
        "    public static function make(): int { return 1; }\n"
        "    public function size(): int { return 2; }\n"
        "}\n"
    ),
    "src/Run.php": (
        "<?php\nnamespace App;\n\n"
        "use App\\Shapes as S;\n\n"
        "function run(): int {\n"
        "    $a = new Shapes\\Box(1);\n"
        "    $b = new \\App\\Shapes\\Box(2);\n"
        "    return S\\Box::make() + \\App\\Shapes\\Box::make() + $a->size();\n"
        "}\n\n"
        "/** @return \\App\\Shapes\\Box */\n"
        "function box() { return new S\\Box(3); }\n\n"
        "function size(): int { return box()->size(); }\n"
    ),
}


def test_php_names_written_with_their_namespace(tmp_path: Path) -> None:
    """A class named with its namespace is found there: relative to the file's own
    (`Shapes\\Box` in `namespace App`), from the root (`\\App\\Shapes\\Box`), through an
    import's alias (`S\\Box` after `use App\\Shapes as S`), in a docblock
    (`@return \\App\\Shapes\\Box`): each `new` calls its constructor, each static call
    and each call on what it holds is Box's."""
    root = _repo(tmp_path / "repo", NAMESPACED)
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    asked = {
        "src/Shapes/Box.php#Box.__construct": [
            ("src/Run.php#box", [13]),
            ("src/Run.php#run", [7, 8]),
        ],
        "src/Shapes/Box.php#Box.make": [("src/Run.php#run", [9])],
        "src/Shapes/Box.php#Box.size": [("src/Run.php#run", [9]), ("src/Run.php#size", [15])],
    }
    answers = [
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    ]
    assert dict(zip(asked, map(_listed, answers), strict=True)) == asked
    assert [data["completeness"] for data in answers] == ["complete"] * 3


WRITER = """<?php
namespace App;

class Writer {
    public function write(): bool { return true; }
}
"""
HOLDERS = """<?php
namespace App;

class Other {
    public function write(): bool { return false; }
}

class Many {
    /** @var array<string, Writer> */
    private array $byName;

    /** @var \\App\\Writer[] */
    private $writers;

    public function one(string $k): bool { return $this->byName[$k]->write(); }

    public function all(): bool {
        foreach ($this->writers as $key => $writer) {
            $writer->write();
        }
        return true;
    }
}
"""


def test_php_containers_a_docblock_types_hold_their_elements(tmp_path: Path) -> None:
    """`@var array<string, Writer>` and `@var \\App\\Writer[]` hold Writers: an element
    (`$this->byName[$k]`) and a `foreach` variable are Writers, so `write()` on them is
    Writer's, not a guess beside Other's."""
    root = _repo(tmp_path / "repo", {"src/Writer.php": WRITER, "src/Many.php": HOLDERS})
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    asked = ["src/Writer.php#Writer.write", "src/Many.php#Other.write"]
    writer, other = (
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    )
    assert _listed(writer) == [("src/Many.php#Many.all", [19]), ("src/Many.php#Many.one", [15])]
    assert _listed(other) == []
    assert [writer["completeness"], other["completeness"]] == ["complete", "complete"]


LATE = """<?php
namespace App;

abstract class Csv {
    public static function fromString(string $s): static { return new static(); }
}

class Writer extends Csv {
    public function force(): void {}
}

class Pass {
    public function hot(): self { return $this; }
}

function write(): void {
    $w = Writer::fromString('a');
    $w->force();
    (new Pass())->hot()->hot();
}
"""


def test_php_static_returns_the_subclass_called_and_new_in_parentheses(tmp_path: Path) -> None:
    """`Writer::fromString()`, declared `: static` in its base, gives a Writer, so
    `force()` on it is Writer's; `(new Pass())->hot()` calls Pass's `hot`."""
    root = _repo(tmp_path / "repo", {"src/Late.php": LATE})
    calls: dict[str, Any] = {"direction": "in", "kinds": ["calls"]}
    asked = ["src/Late.php#Writer.force", "src/Late.php#Pass.hot"]
    answers = [
        envelope["data"]
        for envelope in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    ]
    assert [_listed(data) for data in answers] == [
        [("src/Late.php#write", [18])],
        [("src/Late.php#write", [19])],
    ]
    assert [data["completeness"] for data in answers] == ["complete", "complete"]
