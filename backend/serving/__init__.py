"""Remote serving engines: an OpenAI-compatible server (llama.cpp's `llama-server`, vLLM,
SGLang, llama-cpp-python's own server…) behind the same `EngineLike` interface as the local
engine, yielding the same events.

One module per concern: `client` (HTTP and server-sent events over httpx2), `target` (where a
server is and which model), `adapter` (the protocol of what is read from one kind of server),
one module per server that implements it (`llama_server`, `vllm`, `sglang`), `servers` (the
registry of those, and what they say together about one answer), `prometheus` (a metrics
page and the diff of two), `report` (what a server said, in one shape, never an impossible
number, and the readers every adapter parses with), `deadline` (time limits nothing a server
sends can extend), `text` (server text made readable), `engine` (`ServerEngine`) and `switch`
(`BackendSwitch`: the window's one engine, local or server). No Qt, no llama.cpp.
"""
