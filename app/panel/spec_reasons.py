"""Why a spec type cannot be used with the loaded models, in words the side panel shows on
the greyed-out choice: a server speculates as it was started, the file a spec type drafts with
(a draft model, an EAGLE-3 or DFlash head, a Gemma 4 assistant) is missing or is another kind,
or the target has no MTP heads.

Its words keep the panel's translation context ("GenerationPanel"), where they are listed."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from app.backend_text import spec_label
from app.i18n import translate
from app.models.model_names import shown_name
from backend import spec_types
from backend.serving.target import is_server_path

SERVER_SPECULATES = QT_TRANSLATE_NOOP(
    "GenerationPanel", "A server speculates as it was started (its own draft model, n-gram or "
    "MTP flags); Draftlight cannot choose that for it.")


# What each file loaded as the draft is, and what to choose when it is missing.
KINDS = {
    "draft_model": QT_TRANSLATE_NOOP("GenerationPanel", "a draft model"),
    "eagle3_head": QT_TRANSLATE_NOOP("GenerationPanel", "an EAGLE-3 head"),
    "dflash_head": QT_TRANSLATE_NOOP("GenerationPanel", "a DFlash head"),
    "gemma4_assistant": QT_TRANSLATE_NOOP("GenerationPanel", "a Gemma 4 assistant"),
}
CHOOSE = {
    "draft_model": QT_TRANSLATE_NOOP("GenerationPanel",
                                     "Choose a draft model first (Models → Draft)."),
    "eagle3_head": QT_TRANSLATE_NOOP("GenerationPanel", "Choose an EAGLE-3 head made for this "
                                     "target as the draft first (Models → Draft)."),
    "dflash_head": QT_TRANSLATE_NOOP("GenerationPanel", "Choose a DFlash head made for this "
                                     "target as the draft first (Models → Draft)."),
    "gemma4_assistant": QT_TRANSLATE_NOOP("GenerationPanel", "Choose the Gemma 4 assistant "
                                          "made for this target as the draft first (Models → "
                                          "Draft)."),
}


def spec_reason(spec: str, target, draft) -> str | None:
    """Why `spec` cannot be used with `target` and `draft` (ModelInfo or None), or None."""
    if target is not None and is_server_path(target.path) and spec != spec_types.PLAIN:
        return translate("GenerationPanel", SERVER_SPECULATES)
    declared = spec_types.get(spec)
    needs = declared.needs if declared else ""
    if needs in CHOOSE and draft is None:
        return translate("GenerationPanel", CHOOSE[needs])
    if needs in spec_types.DRAFT_NEEDS and draft is not None:
        # a loaded head fits its target (the engine refuses one that does not)
        loaded = spec_types.draft_need(draft.architecture)
        if loaded != needs and loaded == "eagle3_head" and needs == "draft_model":
            return translate("GenerationPanel", "{name} is an EAGLE-3 head, not a draft model: "
                             "it drafts with spec type EAGLE-3.").format(name=shown_name(draft))
        if loaded != needs and needs == "eagle3_head" and loaded == "draft_model":
            return translate("GenerationPanel", "{name} is a draft model, not an EAGLE-3 head "
                             "for this target: choose a head made for it as the draft.").format(
                name=shown_name(draft))
        if loaded != needs:
            return translate("GenerationPanel", "{name} is {kind}, not {wanted}: it drafts with "
                             "spec type {spec}.").format(
                name=shown_name(draft), kind=translate("GenerationPanel", KINDS[loaded]),
                wanted=translate("GenerationPanel", KINDS[needs]),
                spec=spec_label(spec_types.drafting_with_file(draft.architecture).name))
    if needs == "mtp_heads":
        if target is None:
            return translate("GenerationPanel", "Load a target model first.")
        if not target.n_mtp_heads:
            return translate("GenerationPanel", "{name} has no multi-token-prediction (NextN) "
                             "heads; MTP needs a model trained with them (e.g. the Qwen3.5 "
                             "family).").format(name=shown_name(target))
    return None
