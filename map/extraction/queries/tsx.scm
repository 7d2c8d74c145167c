; JSX additions for TSX (appended to typescript.scm and ecmascript.scm): components used as elements.

((jsx_opening_element name: (identifier) @name @ref.references)
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name @ref.references)
  (#match? @name "^[A-Z]"))
(jsx_opening_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.references)
(jsx_self_closing_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.references)
