"""The soak benchmark's parts: its corpora, the edit loop and the process tree's memory."""
