"""What a PHP docblock says a parameter or property holds: `@param Argument $arg`
above a method or function, `@var Router` (or `@var Router $router`) above a
property. Untyped PHP code types its values this way, and its language server reads
them; so does the map, as a type it ranks below one the code declares.

A tag names one class or none: a union with `null` (`?Router`, `Router|null`) is the
class; a scalar (`int`, `string`, `array`: written in lower case), an array of a
class (`Router[]`), a generic (`Collection<int, Router>`) or a union of two classes
types nothing. A qualified name keeps its last part (`\\League\\Router` -> `Router`),
which the file's scope resolves as it resolves any other use.
"""

from __future__ import annotations

import re

from tree_sitter import Node

_TAG = re.compile(r"@(param|var)\s+(\S+)(?:\s+(\$\w+))?")
_CLASS = re.compile(r"\\?(?:[A-Za-z_]\w*\\)*([A-Z]\w*)")
_PARAMETERS = frozenset({"simple_parameter", "property_promotion_parameter"})


def doc_types(comment: Node, declaration: Node) -> list[tuple[Node, str]]:
    """(name node, class name) for what `comment`'s tags type in `declaration`: each
    parameter a `@param` names (its `variable_name`), or the property a `@var`
    stands above (the `name` inside its `variable_name`)."""
    raw = comment.text
    if not raw or not raw.startswith(b"/**"):
        return []
    tags = _TAG.findall(raw.decode("utf-8", errors="replace"))
    if declaration.type == "property_declaration":
        name = _property_name(declaration)
        types = [_class_of(written) for tag, written, _ in tags if tag == "var"]
        return [(name, types[0])] if name is not None and types and types[0] else []
    written_for = {var: _class_of(written) for tag, written, var in tags if tag == "param" and var}
    parameters = declaration.child_by_field_name("parameters")
    found = []
    for parameter in parameters.named_children if parameters is not None else ():
        variable = parameter.child_by_field_name("name") if parameter.type in _PARAMETERS else None
        text = variable.text.decode("utf-8", errors="replace") if variable and variable.text else ""
        if variable is not None and written_for.get(text):
            found.append((variable, written_for[text]))
    return found


def _property_name(declaration: Node) -> Node | None:
    """The `name` inside the first property's `variable_name` (`$router`: `router`)."""
    for element in declaration.named_children:
        variable = element.child_by_field_name("name")
        if element.type == "property_element" and variable is not None:
            return variable.named_children[0] if variable.named_children else None
    return None


def _class_of(written: str) -> str:
    """The one class a tag's type names, or ""."""
    kinds = [k for k in written.removeprefix("?").split("|") if k.lower() != "null"]
    match = _CLASS.fullmatch(kinds[0]) if len(kinds) == 1 else None
    return match[1] if match else ""
