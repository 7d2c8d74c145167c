; Extraction query for Bash: captures are explained in map/extraction/extract_matches.py.
; Functions are symbols, and so are upper-case names given at the top of a script:
; constants when plain or `readonly`, variables when `export`ed or `declare`d.

(function_definition name: (word) @name) @def.function
((program (variable_assignment name: (variable_name) @name) @def.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
((program (declaration_command "readonly" (variable_assignment name: (variable_name) @name)) @def.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
((program (declaration_command (variable_assignment name: (variable_name) @name)) @def.variable)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

; `source lib.sh`, `. ./lib.sh`
(command
  name: (command_name (word) @_source)
  argument: (_)
  (#match? @_source "^(source|\\.)$")) @import

; a command is a call of the function of its name (when the script defines one)
((command name: (command_name (word) @name)) @ref.calls
  (#not-match? @name "^(source|\\.)$"))

(comment) @comment
