"""What the tree-sitter grammars call things, per language: names, functions,
local bindings, member accesses, calls, types. Data for the ground truth; the
helpers that read nodes with it are in accuracy.nodes."""

from __future__ import annotations

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
