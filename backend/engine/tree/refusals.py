"""Why a request drafts a chain where it asked for a tree, in words (llama.cpp-free, so the
command line can say it before an engine starts)."""

TREE_DRAFTERS = ("Only these spec types draft token trees: {drafters}; {spec} drafts a chain: "
                 "ask for no tree with it.")
TREE_RECURRENT = ("{name} has recurrent layers, whose state cannot be shared between the "
                  "branches of a draft tree: it drafts a chain.")
