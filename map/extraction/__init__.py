"""Extraction: one file's text in, its extract out (map.model.FileExtract).

Which language a file is in and its tree-sitter grammar and query (`languages`,
`queries/*.scm`); the query's matches turned into definitions, imports, uses and
comments (`extract_matches`, `extract_imports` with `import_facts` and
`script_imports`, `extract_uses`, `node_text`; C and C++ functions' forms and
macro bodies' calls: `c_forms`);
LSP positions (`positions`); fingerprints (`fingerprint`); a symbols-only pass
(`outline`); the compact lists a store row holds (`snapshot`); what an extract is
computed with besides the bytes (`recipe`: a shared row's key).

May import: map's base modules (model, errors, progress, gcpause, give_way), disk.
Invariant: one file at a time. Nothing here knows another file, the graph or
the store: an extract depends only on a file's path and bytes.
"""
