; JSX additions for TSX (appended to typescript.scm and ecmascript.scm): components used as
; elements, which render them (a call, as the TypeScript server counts them).

((jsx_opening_element name: (identifier) @name @ref.calls)
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name @ref.calls)
  (#match? @name "^[A-Z]"))
(jsx_opening_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.calls)
(jsx_self_closing_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.calls)
