"""Views of answers for people, one module per family (nav, map, memory), and what
they share (text): `path:line`, names, kinds, confidence, one completeness line with
its reason, warnings last; never wrapped or cut, in command-line words."""
