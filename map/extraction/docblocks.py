"""What a PHP docblock says a parameter or property holds, or a function returns:
`@param Argument $arg` and `@return Builder` above a method or function, `@var
Router` (or `@var Router $router`) above a property. Untyped PHP code types its
values this way, and its language server reads them; so does the map, as a type it
ranks below one the code declares.

A tag names one class or none: a union with `null` (`?Router`, `Router|null`) is the
class; a scalar (`int`, `string`, `array`: written in lower case), an array of a
class (`Router[]`), a generic (`Collection<int, Router>`) or a union of two classes
types nothing. A qualified name keeps its last part (`\\League\\Router` -> `Router`),
which the file's scope resolves as it resolves any other use.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from map.extraction.node_text import ELEMENT, php_namespaced

_TAG = re.compile(r"@(param|var|return)\s+((?:[^\s<]|<[^>]*>)+)(?:\s+(\$\w+))?")
_CLASS = re.compile(r"\\?(?:[A-Za-z_]\w*\\)*([A-Z]\w*)")
_HOLDING = re.compile(
    r"(?:array|list|iterable|non-empty-array|non-empty-list)<(?:[^,<>]+,)?([^,<>]+)>|(.+)\[\]"
)
"""A container's type (`Route[]`, `array<string, Route>`, `list<Route>`): what it holds."""
_PARAMETERS = frozenset({"simple_parameter", "property_promotion_parameter"})
OWN_CLASS_WORDS = frozenset({"self", "static"})
"""What a method declares it returns when it returns an object of its own class."""
_OWN_CLASS = OWN_CLASS_WORDS | {"$this"}
"""What a method returns when it returns its own object (`@return $this`)."""
_SELF = "self"
_CLASS_TYPES = frozenset(
    {"class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"}
)
DOC_ROLE = "assign.doc"
"""The role of what a tag gives a parameter or property (ranked below a declared type)."""
RETURNS_ROLE = "assign.returns"


def doc_types(comment: Node, declaration: Node) -> list[tuple[Node, str, str]]:
    """(name node, role, class name) for what `comment`'s tags type in `declaration`:
    each parameter a `@param` names (its `variable_name`), the property a `@var`
    stands above (the `name` inside its `variable_name`), and what a function or
    method without a declared return type returns (`@return`; `self`, `static` or
    `$this`: its own class), keyed on its parameter list, inside it."""
    raw = comment.text
    if not raw or not raw.startswith(b"/**"):
        return []
    tags = _TAG.findall(raw.decode("utf-8", errors="replace"))
    if declaration.type == "property_declaration":
        name = _property_name(declaration)
        types = [_class_of(written) for tag, written, _ in tags if tag == "var"]
        return [(name, DOC_ROLE, types[0])] if name is not None and types and types[0] else []
    written_for = {var: _class_of(written) for tag, written, var in tags if tag == "param" and var}
    parameters = declaration.child_by_field_name("parameters")
    found = []
    for parameter in parameters.named_children if parameters is not None else ():
        variable = parameter.child_by_field_name("name") if parameter.type in _PARAMETERS else None
        text = variable.text.decode("utf-8", errors="replace") if variable and variable.text else ""
        if variable is not None and written_for.get(text):
            found.append((variable, DOC_ROLE, written_for[text]))
    returned = [_class_of(written) for tag, written, _ in tags if tag == "return"]
    declared = declaration.child_by_field_name("return_type")
    if returned and returned[0] and parameters is not None and declared is None:
        own = returned[0] == _SELF
        value = own_class(declaration) if own else returned[0]
        if value:
            found.append((parameters, RETURNS_ROLE, value))
    return found


def own_class(node: Node | None) -> str:
    """The name of the class (interface, trait, enum) `node` is in, or ""."""
    while node is not None and node.type not in _CLASS_TYPES:
        node = node.parent
    name = node.child_by_field_name("name") if node is not None else None
    return name.text.decode("utf-8", errors="replace") if name is not None and name.text else ""


def _property_name(declaration: Node) -> Node | None:
    """The `name` inside the first property's `variable_name` (`$router`: `router`)."""
    for element in declaration.named_children:
        variable = element.child_by_field_name("name")
        if element.type == "property_element" and variable is not None:
            return variable.named_children[0] if variable.named_children else None
    return None


def _class_of(written: str) -> str:
    """The one class a tag's type names (`_SELF` for its own; with its namespace as
    map.extraction.node_text.php_namespaced writes it; `[]` before it for a container
    of them), or ""."""
    kinds = [k for k in written.removeprefix("?").split("|") if k.lower() != "null"]
    if len(kinds) == 1 and kinds[0] in _OWN_CLASS:
        return _SELF
    if len(kinds) != 1:
        return ""
    held = _HOLDING.fullmatch(kinds[0])
    match = _CLASS.fullmatch((held[1] or held[2]).strip() if held else kinds[0])
    if match is None:
        return ""
    return (ELEMENT if held else "") + php_namespaced(match[0])
