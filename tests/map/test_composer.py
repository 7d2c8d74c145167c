"""composer.json read into autoload facts, and where those put a class (unit tests of
map.linking.composer; the map's use of them: tests/map/test_php_layout.py)."""

from __future__ import annotations

import orjson

from map.linking.composer import Autoload, read_composer

PACKAGE = {
    "autoload": {
        "psr-4": {"Acme\\Web\\": ["lib/", "extra"], "Acme\\Web\\Cli\\": "cli/"},
        "psr-0": {"Legacy_": "old/"},
        "classmap": ["generated/"],
    },
    "autoload-dev": {"psr-4": {"Acme\\Web\\Tests\\": "checks/"}},
}


def test_a_package_composer_json_maps_its_folders_from_its_own_directory() -> None:
    facts = read_composer("packages/web/composer.json", orjson.dumps(PACKAGE).decode())
    assert facts == {
        "kind": "composer",
        "psr4": [
            ["Acme\\Web\\", "packages/web/lib"],
            ["Acme\\Web\\", "packages/web/extra"],
            ["Acme\\Web\\Cli\\", "packages/web/cli"],
            ["Acme\\Web\\Tests\\", "packages/web/checks"],
        ],
        "psr0": [["Legacy_", "packages/web/old"]],
        "classmap": ["packages/web/generated"],
    }
    autoload = Autoload({"packages/web/composer.json": facts})
    assert autoload.class_files("Acme\\Web\\Cli", "Run") == [
        "packages/web/cli/Run.php",
        "packages/web/lib/Cli/Run.php",
        "packages/web/extra/Cli/Run.php",
    ]
    assert autoload.folders("Acme\\Web\\Tests\\Http") == [
        "packages/web/checks/Http",
        "packages/web/lib/Tests/Http",
        "packages/web/extra/Tests/Http",
    ]
    assert autoload.class_files("Other", "Run") == []
    assert autoload.class_files("", "Legacy_Cart") == ["packages/web/old/Legacy/Cart.php"]
    assert autoload.classmap == ("packages/web/generated",)


def test_psr0_keeps_the_namespace_path_and_reads_underscores_as_folders() -> None:
    facts = read_composer("composer.json", '{"autoload": {"psr-0": {"Twig_": "lib/"}}}')
    autoload = Autoload({"composer.json": facts})
    assert autoload.class_files("", "Twig_Node_Text") == ["lib/Twig/Node/Text.php"]
    assert autoload.class_files("", "Other_Text") == []
    facts = read_composer("composer.json", '{"autoload": {"psr-0": {"": "src/"}}}')
    assert Autoload({"composer.json": facts}).class_files("Twig", "Node_Text") == [
        "src/Twig/Node/Text.php"
    ]


def test_a_composer_json_that_cannot_be_read_maps_nothing() -> None:
    for text, error in [
        (None, "unreadable"),
        ('{"autoload": ', "not valid JSON"),
        ("[1]", "not a JSON object"),
    ]:
        facts = read_composer("composer.json", text)
        assert facts["kind"] == "composer" and facts["error"].startswith(error)
        autoload = Autoload({"composer.json": facts})
        assert autoload.class_files("Acme", "Run") == [] and autoload.folders("Acme") == []
