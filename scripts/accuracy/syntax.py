"""What the tree-sitter grammars call things, per language: names, functions,
local bindings, member accesses, calls; and the declarations of names the map
keeps no symbol for. Data and small node helpers for the ground truth."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

NAME_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"identifier"}),
    "typescript": frozenset(
        {
            "identifier",
            "property_identifier",
            "type_identifier",
            "shorthand_property_identifier",
            "shorthand_property_identifier_pattern",
        }
    ),
    "go": frozenset({"identifier", "field_identifier", "type_identifier"}),
    "c": frozenset({"identifier", "field_identifier", "type_identifier"}),
    "ruby": frozenset({"identifier", "constant"}),
    "php": frozenset({"name"}),
    "csharp": frozenset({"identifier"}),
    "kotlin": frozenset({"identifier"}),
    "swift": frozenset({"simple_identifier", "type_identifier"}),
    "scala": frozenset({"identifier", "type_identifier"}),
    "lua": frozenset({"identifier"}),
    "bash": frozenset({"word"}),
}
FUNCTION_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"function_definition", "lambda"}),
    "typescript": frozenset(
        {
            "function_declaration",
            "function_expression",
            "arrow_function",
            "method_definition",
            "generator_function_declaration",
            "generator_function",
        }
    ),
    "go": frozenset({"function_declaration", "method_declaration", "func_literal"}),
    "c": frozenset({"function_definition"}),
    "ruby": frozenset({"method", "singleton_method", "block", "do_block", "lambda"}),
    "php": frozenset(
        {"function_definition", "method_declaration", "anonymous_function", "arrow_function"}
    ),
    "csharp": frozenset(
        {
            "method_declaration",
            "constructor_declaration",
            "local_function_statement",
            "lambda_expression",
            "accessor_declaration",
        }
    ),
    "kotlin": frozenset(
        {"function_declaration", "lambda_literal", "anonymous_function", "secondary_constructor"}
    ),
    "swift": frozenset({"function_declaration", "init_declaration", "lambda_literal"}),
    "scala": frozenset({"function_definition", "lambda_expression"}),
    "lua": frozenset({"function_declaration", "function_definition"}),
    "bash": frozenset({"function_definition"}),
}
# (parent type, field of the child, or "" for any child): the child identifier binds a local
BINDINGS: dict[str, frozenset[tuple[str, str]]] = {
    "python": frozenset(
        {
            ("parameters", ""),
            ("lambda_parameters", ""),
            ("default_parameter", "name"),
            ("typed_default_parameter", "name"),
            ("typed_parameter", ""),
            ("list_splat_pattern", ""),
            ("dictionary_splat_pattern", ""),
            ("assignment", "left"),
            ("augmented_assignment", "left"),
            ("pattern_list", ""),
            ("tuple_pattern", ""),
            ("for_statement", "left"),
            ("for_in_clause", "left"),
            ("as_pattern_target", ""),
            ("named_expression", "name"),
        }
    ),
    "typescript": frozenset(
        {
            ("required_parameter", "pattern"),
            ("optional_parameter", "pattern"),
            ("variable_declarator", "name"),
            ("arrow_function", "parameter"),
            ("object_pattern", ""),
            ("array_pattern", ""),
        }
    ),
    "go": frozenset(
        {
            ("parameter_declaration", "name"),
            ("variadic_parameter_declaration", "name"),
            ("var_spec", "name"),
            ("const_spec", "name"),
            ("range_clause", "left"),
        }
    ),
    "c": frozenset(),
    "ruby": frozenset(
        {
            ("method_parameters", ""),
            ("block_parameters", ""),
            ("lambda_parameters", ""),
            ("optional_parameter", "name"),
            ("keyword_parameter", "name"),
            ("splat_parameter", "name"),
            ("hash_splat_parameter", "name"),
            ("block_parameter", "name"),
            ("assignment", "left"),
            ("operator_assignment", "left"),
            ("left_assignment_list", ""),
            ("for", "pattern"),
        }
    ),
    # PHP's locals are `$variables`, never a function's or method's name
    "php": frozenset(),
    "csharp": frozenset(
        {
            ("parameter", "name"),
            ("variable_declarator", "name"),
            ("foreach_statement", "left"),
            ("declaration_expression", "name"),
        }
    ),
    "kotlin": frozenset({("parameter", ""), ("variable_declaration", "")}),
    "swift": frozenset(
        {("parameter", "name"), ("pattern", "bound_identifier"), ("lambda_parameter", "name")}
    ),
    "scala": frozenset(
        {
            ("parameter", "name"),
            ("val_definition", "pattern"),
            ("var_definition", "pattern"),
            ("lambda_expression", "parameters"),
            ("bindings", ""),
            ("binding", "name"),
            ("enumerator", ""),
        }
    ),
    # `x = f` and `local x = f` alike (a global given inside a function is rare)
    "lua": frozenset(
        {("parameters", "name"), ("variable_list", "name"), ("for_numeric_clause", "name")}
    ),
    # a shell's variables are never a function's name
    "bash": frozenset(),
}
BINDING_NAMES: dict[str, frozenset[str]] = {
    "swift": frozenset({"simple_identifier"}),
}
"""The node types that bind a local, where not `identifier` (and TypeScript's pattern)."""
C_DECLARATORS = frozenset(
    {"pointer_declarator", "array_declarator", "init_declarator", "parenthesized_declarator"}
)
# members of these globals are never project symbols
FOREIGN_GLOBALS: dict[str, frozenset[str]] = {
    "python": frozenset(
        {"str", "bytes", "dict", "list", "set", "tuple", "int", "object", "super", "type"}
    ),
    "typescript": frozenset(
        {
            "JSON",
            "Object",
            "Array",
            "Math",
            "Promise",
            "Number",
            "String",
            "console",
            "Reflect",
            "Symbol",
            "Date",
            "Error",
            "Map",
            "Set",
            "BigInt",
        }
    ),
    "go": frozenset(),
    "c": frozenset(),
    "ruby": frozenset(
        {
            *("File", "Dir", "IO", "Kernel", "Process", "Time", "Thread", "Mutex", "ENV"),
            *("Array", "Hash", "String", "Integer", "Float", "Symbol", "Struct", "Regexp"),
            *("Object", "Class", "Module", "Proc", "Comparable", "Enumerable", "JSON", "URI"),
        }
    ),
    "php": frozenset(),
    "csharp": frozenset(
        {
            *("Console", "Math", "String", "string", "Enumerable", "Convert", "Array", "Task"),
            *("Type", "Object", "object", "Environment", "Path", "File", "Directory", "Debug"),
            *("Activator", "Enum", "Guid", "DateTime", "TimeSpan", "BitConverter", "Buffer"),
            *("Interlocked", "Monitor", "Marshal", "GC", "StringComparer", "CultureInfo"),
            *("Encoding", "Char", "char", "Int32", "int", "Int64", "long", "Double", "double"),
            *("Decimal", "decimal", "Nullable", "Expression", "Assert", "System"),
        }
    ),
    "kotlin": frozenset({"Math", "System", "String", "Integer", "Collections", "Arrays"}),
    "swift": frozenset(
        {
            *("String", "Array", "Dictionary", "Int", "Double", "DispatchQueue", "URL"),
            *("NotificationCenter", "FileManager", "Bundle", "Data", "Date", "ProcessInfo"),
            *("JSONSerialization", "XCTAssert", "Swift", "Foundation"),
        }
    ),
    "scala": frozenset(
        {"Seq", "List", "Map", "Set", "Option", "Some", "Future", "Console", "Math", "Array"}
        | {"String", "System", "scala", "java", "Vector", "Iterator", "StringBuilder"}
    ),
    "lua": frozenset({"string", "table", "math", "io", "os", "coroutine", "debug", "utf8"}),
    "bash": frozenset(),
}
MEMBERS: dict[str, dict[str, tuple[str, str]]] = {
    "python": {"attribute": ("attribute", "object")},
    "typescript": {"member_expression": ("property", "object")},
    "go": {"selector_expression": ("field", "operand")},
    "ruby": {"call": ("method", "receiver")},
    "php": {
        "member_call_expression": ("name", "object"),
        "nullsafe_member_call_expression": ("name", "object"),
        "member_access_expression": ("name", "object"),
        "nullsafe_member_access_expression": ("name", "object"),
        "scoped_call_expression": ("name", "scope"),
        "class_constant_access_expression": ("", ""),
    },
    "csharp": {"member_access_expression": ("name", "expression")},
    "kotlin": {"navigation_expression": ("", "")},
    "swift": {"navigation_expression": ("suffix", "target")},
    "scala": {"field_expression": ("field", "value")},
    "lua": {
        "dot_index_expression": ("field", "table"),
        "method_index_expression": ("method", "table"),
    },
}
"""Per member-access node type: (field of the member's name, field of the receiver);
"" for a grammar that names neither: the last named child, and the first."""
MEMBER_HOPS: dict[str, frozenset[str]] = {
    "csharp": frozenset({"generic_name"}),
    "swift": frozenset({"navigation_suffix"}),
}
"""Nodes between a member's name and its member access (`Q<int>` of `obj.Q<int>()`,
Swift's `.name` suffix)."""
CALLS: dict[str, dict[str, str]] = {
    "python": {"call": "function"},
    "typescript": {"call_expression": "function"},
    "go": {"call_expression": "function"},
    "c": {"call_expression": "function"},
    "ruby": {"call": "method"},
    "php": {"function_call_expression": "function"},
    "csharp": {"invocation_expression": "function"},
    "kotlin": {"call_expression": ""},
    "swift": {"call_expression": ""},
    "scala": {"call_expression": "function", "infix_expression": "operator"},
    "lua": {"function_call": "name"},
    "bash": {"command": "name"},
}
"""Per call node type: the field of what it calls ("" for its first named child)."""
CALL_MEMBERS: dict[str, frozenset[str]] = {
    "ruby": frozenset({"call"}),
    "php": frozenset(
        {"member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"}
    ),
}
"""Member accesses that are calls themselves (`obj.name(...)` is one node)."""
CALLEE_WRAPPERS: dict[str, frozenset[str]] = {
    "php": frozenset({"qualified_name"}),
    "csharp": frozenset({"generic_name"}),
    "scala": frozenset({"generic_function"}),
    "bash": frozenset({"command_name"}),
}
"""Nodes between a called name and its call (`\\A\\f` of `\\A\\f()`, `f<T>`, a command's name)."""
NOT_CODE_PARENTS: dict[str, frozenset[str]] = {
    "php": frozenset({"variable_name", "namespace_name"}),
}
"""Parents whose name child is never a function's or method's name (PHP's `$name`,
a namespace's segments)."""
CODE_PARENTS: dict[str, frozenset[str]] = {
    "bash": frozenset({"command_name", "function_definition"}),
}
"""Where only a language's names are code (a shell word elsewhere is an argument)."""
TYPE_DECLARATIONS: dict[str, frozenset[str]] = {
    "ruby": frozenset({"class", "module"}),
    "csharp": frozenset(
        {"class_declaration", "struct_declaration", "record_declaration", "interface_declaration"}
    ),
    "kotlin": frozenset({"class_declaration", "object_declaration"}),
    "swift": frozenset({"class_declaration", "protocol_declaration"}),
    "scala": frozenset({"class_definition", "object_definition", "trait_definition"}),
}
"""The types whose methods the type's own code calls by their plain name."""


def walk(root: ts.Node) -> Iterator[ts.Node]:
    """Every node under `root` (itself included), in document order."""
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            yield node
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return


def member_of(language: str, node: ts.Node) -> ts.Node | None:
    """The member expression whose member name `node` is (`x.NAME`), if it is one
    (with a receiver: Ruby's `name(1)` alone is a call, no member)."""
    shapes = MEMBERS.get(language, {})
    hops = MEMBER_HOPS.get(language, frozenset())
    name, parent = node, node.parent
    while parent is not None and parent.type in hops and parent.named_children[0] == name:
        name, parent = parent, parent.parent
    shape = None if parent is None else shapes.get(parent.type)
    if parent is None or shape is None or _part(parent, shape[0], last=True) != name:
        return None
    return parent if receiver_of(language, parent) is not None else None


def receiver_of(language: str, member: ts.Node) -> ts.Node | None:
    """The receiver of a member expression (`x` of `x.name`): C#'s `this.name` has
    the keyword, unnamed, as its first child."""
    field = MEMBERS[language][member.type][1]
    receiver = _part(member, field, last=False)
    if receiver is None and member.children and not member.children[0].is_named:
        receiver = member.children[0]
    if receiver is not None and receiver == _part(
        member, MEMBERS[language][member.type][0], last=True
    ):
        return None
    return receiver


def _part(node: ts.Node, field: str, *, last: bool) -> ts.Node | None:
    """The child in `field`, or (no field) the last or first named child."""
    if field:
        return node.child_by_field_name(field)
    children = node.named_children
    return (children[-1] if last else children[0]) if children else None


def receiver_text(receiver: ts.Node) -> str:
    """A receiver's text, PHP's `$` left off (`$this` is `this`)."""
    return (receiver.text or b"").decode().lstrip("$")


def root_of(language: str, receiver: ts.Node) -> str:
    """The leftmost name of a receiver chain (`a` of `a.b.c`)."""
    while receiver.type in MEMBERS.get(language, {}):
        inner = receiver_of(language, receiver)
        if inner is None:
            break
        receiver = inner
    return receiver_text(receiver)


def calls_it(language: str, node: ts.Node) -> bool:
    """Whether `node` (a name) is what a call calls: `f()`, `x.f()`, `f<T>()`,
    Ruby's `x.f` and `f 1`, Scala's `x f y`, a shell command."""
    callee = member_of(language, node) or node
    if callee is not node and callee.type in CALL_MEMBERS.get(language, frozenset()):
        return True
    wrappers = CALLEE_WRAPPERS.get(language, frozenset())
    while callee.parent is not None and callee.parent.type in wrappers:
        callee = callee.parent
    parent = callee.parent
    field = None if parent is None else CALLS[language].get(parent.type)
    return field is not None and parent is not None and _part(parent, field, last=False) == callee


def in_type(language: str, node: ts.Node, name: str) -> bool:
    """Whether `node` is inside the declaration of a type (class, module, object,
    extension) called `name` (the last segment of `A::B`)."""
    holder = node.parent
    while holder is not None:
        if holder.type in TYPE_DECLARATIONS.get(language, frozenset()):
            named = holder.child_by_field_name("name")
            text = (named.text or b"").decode() if named is not None else ""
            if text.replace("::", ".").rpartition(".")[2] == name:
                return True
        holder = holder.parent
    return False


GO_DECLARATIONS = frozenset({"field_declaration", "method_elem", "method_spec"})
TS_DECLARATIONS = frozenset(
    {"enum_assignment", "enum_body", "property_signature", "public_field_definition"}
)


def declares_other(language: str, node: ts.Node) -> bool:
    """`node` declares a name the map keeps no symbol for: the member assigned in
    `x.NAME = ...`; a Python class attribute; a TypeScript enum member, interface
    property, class field or type parameter; a Go struct field or interface method."""
    parent = node.parent
    if language == "typescript" and parent is not None:
        if parent.type == "type_parameter":
            return parent.child_by_field_name("name") == node
        if parent.type in TS_DECLARATIONS:
            return parent.type == "enum_body" or parent.child_by_field_name("name") == node
    if language == "go" and parent is not None and parent.type in GO_DECLARATIONS:
        return parent.child_by_field_name("name") == node
    if language == "python" and parent is not None and parent.type == "assignment":
        statement = parent.parent
        block = statement.parent if statement is not None else None
        holder = block.parent if block is not None else None
        if holder is not None and holder.type == "class_definition":
            return parent.child_by_field_name("left") == node
    member = member_of(language, node)
    holder = member.parent if member is not None else None
    if holder is None or holder.type not in {"assignment", "assignment_expression"}:
        return False
    return holder.child_by_field_name("left") == member


RUBY_DECLARING_CALLS = frozenset(
    {"attr_reader", "attr_writer", "attr_accessor", "define_method", "alias_method"}
)


def declared_by_call(language: str, node: ts.Node) -> list[str]:
    """The names a Ruby call declares methods of, which the map keeps no symbol for:
    `attr_accessor :env` (the name of the call's method is `node`)."""
    call = node.parent
    if language != "ruby" or call is None or call.type != "call":
        return []
    if call.child_by_field_name("method") != node or node.text is None:
        return []
    if node.text.decode() not in RUBY_DECLARING_CALLS:
        return []
    arguments = call.child_by_field_name("arguments")
    symbols = [] if arguments is None else arguments.named_children
    return [(s.text or b"").decode().lstrip(":") for s in symbols if s.type == "simple_symbol"]


def nearest_function(language: str, node: ts.Node) -> ts.Node | None:
    """The innermost function (or lambda) around `node`, if any."""
    scope = node.parent
    while scope is not None and scope.type not in FUNCTION_TYPES[language]:
        scope = scope.parent
    return scope
