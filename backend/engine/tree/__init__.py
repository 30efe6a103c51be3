"""Token trees: several draft branches verified in one batch (issue 42). `structure` is the
tree, `verify` the lossless rules that walk it, `Context.decode_tree` / `keep_branch` the
llama.cpp side."""
