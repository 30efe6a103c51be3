"""The line under each model in the side panel that says what is in the file: its size,
parameters, trained context, MTP heads, where it runs, or that a server answers.

Its words keep the panel's translation context ("GenerationPanel"), where they are listed."""

from __future__ import annotations

from app.formatting import human_size
from app.i18n import translate
from backend import spec_types
from backend.serving.target import is_server_path


def server_target(path: str, target) -> bool:
    """Whether `path` is the loaded target and a server's model (backend/serving/)."""
    return target is not None and path == target.path and is_server_path(path)


def describe_model(info) -> str:
    if is_server_path(info.path):
        return translate("GenerationPanel", "answers from an OpenAI-compatible server")
    params = translate("GenerationPanel", "{n:.0f}M params").format(
        n=info.n_params / 1e6) if info.n_params else ""
    trained = translate("GenerationPanel", "trained ctx {n}").format(
        n=info.n_ctx_train) if info.n_ctx_train else ""
    parts = [p for p in (params, human_size(info.size_bytes) if info.size_bytes else "",
                         trained) if p]
    if info.n_mtp_heads:
        parts.append(translate("GenerationPanel", "{n} MTP heads").format(n=info.n_mtp_heads))
    if info.gpu_fallback:
        parts.append(translate("GenerationPanel", "on the CPU: the GPU could not hold it"))
    elif info.on_gpu:
        parts.append(translate("GenerationPanel", "on the GPU"))
    if spec_types.draft_need(info.architecture) == "eagle3_head":
        parts.append(translate("GenerationPanel", "EAGLE-3 head: drafts with spec type EAGLE-3"))
    return " · ".join(parts)
