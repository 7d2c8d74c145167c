"""The answer contract: what every answer looks like, and how it is cut and refused.

envelope       the envelope every answer shares, and budget cuts
render         live results (locations, calls, outlines) as answer items
nav_shapes, map_shapes, map_status_shapes, memory_shapes, change_shapes
               the typed `data` of each tool family (published output schemas)
map_verdicts   verification's verdicts on map answers, in those shapes
schema_types   the described parameters and named enumerations (input schemas)
errors         the ToolError tree; `translate` turns lower layers' errors into it
server_errors  a language server's own error, as one line
inputs         checks on what a caller typed (length, text, shown safely)
"""
