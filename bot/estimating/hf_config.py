"""A model's shape from its Hugging Face `config.json`: parameters counted from the layer sizes,
as the transformers library builds them (attention, gated or plain MLP, experts, embeddings, a
vision tower), when no count of the published weights is given.

The text is a stranger's: bounded in size and nesting, every number checked, and any flaw is one
ShapeError line, never a traceback and never a made-up number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from mincards.bot.estimating.shape import LARGEST_B, Shape, ShapeError, Source
from mincards.bot.facts.known_models import KnownModel
from mincards.bot.shallow_json import loads

MAX_BYTES = 1_000_000
MAX_DEPTH = 16
# Architectures whose MLP is one up and one down projection (no gate): GPT-2 and its kin.
PLAIN_MLP = frozenset({"gpt2", "gpt_neox", "gptj", "falcon", "bloom", "opt", "phi", "starcoder2",
                       "gpt_bigcode", "mpt"})
# Architectures whose output layer is the input embedding unless the configuration says not.
TIED_BY_DEFAULT = frozenset({"gemma", "gemma2", "gemma3", "gemma3_text"})
# Architectures whose every mixture-of-experts layer also has one shared expert of the routed
# experts' width, which their configuration does not count (Llama 4).
ONE_SHARED_EXPERT = frozenset({"llama4_text", "llama4"})
# Activations of a gated (SwiGLU) vision MLP: three projections, not two (Qwen2.5-VL, Pixtral).
GATED_ACTIVATIONS = frozenset({"silu", "swiglu"})
# Where a multimodal configuration keeps its language model's part.
TEXT_PARTS = ("text_config", "llm_config", "language_config")
# The largest a layer count or a width can sensibly be.
MAX_LAYERS = 1_000
MAX_WIDTH = 1_000_000


def _number(config: Mapping[str, Any], *names: str, default: float | None = None,
            allow_zero: bool = False) -> float | None:
    for name in names:
        value = config.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
                value):
            raise ShapeError(f"config.json: {name} is {str(value)[:40]!r}, not a number")
        if value < 0 or (value == 0 and not allow_zero):
            raise ShapeError(f"config.json: {name} is {value}, not a size")
        if value > MAX_WIDTH:
            raise ShapeError(f"config.json: {name} is {value}, beyond any model")
        return float(value)
    return default


def _required(config: Mapping[str, Any], what: str, *names: str) -> float:
    value = _number(config, *names)
    if value is None:
        raise ShapeError(f"config.json has no {what} ({' or '.join(names)})")
    return value


def _attention(c: Mapping[str, Any], hidden: float) -> float:
    heads = _number(c, "num_attention_heads", "n_head", "num_heads") or max(1.0, hidden / 128)
    if c.get("kv_lora_rank"):  # multi-head latent attention (DeepSeek-V2/V3)
        rank = _required(c, "kv_lora_rank", "kv_lora_rank")
        nope = _number(c, "qk_nope_head_dim", default=128.0) or 0.0
        rope = _number(c, "qk_rope_head_dim", default=64.0) or 0.0
        v_dim = _number(c, "v_head_dim", default=128.0) or 0.0
        q_rank = _number(c, "q_lora_rank")
        q = (hidden * q_rank + q_rank * heads * (nope + rope)) if q_rank else (
            hidden * heads * (nope + rope))
        return q + hidden * (rank + rope) + rank * heads * (nope + v_dim) + heads * v_dim * hidden
    groups = _number(c, "num_key_value_heads", "multi_query_group_num", "n_head_kv",
                     "num_kv_heads") or heads
    head_dim = _number(c, "head_dim", "kv_channels") or hidden / heads
    return 2 * hidden * heads * head_dim + 2 * hidden * groups * head_dim


def _mlp(c: Mapping[str, Any], hidden: float, width: float) -> float:
    gated = str(c.get("model_type", "")).lower() not in PLAIN_MLP
    return (3 if gated else 2) * hidden * width


def _text(c: Mapping[str, Any]) -> tuple[float, float, int, int, int]:
    """(total, active parameters, layers, hidden, vocabulary) of a language model."""
    hidden = _required(c, "hidden size", "hidden_size", "n_embd", "d_model")
    layers = _required(c, "layer count", "num_hidden_layers", "n_layer", "num_layers")
    if layers > MAX_LAYERS:
        raise ShapeError(f"config.json: {layers:g} layers is beyond any model")
    vocab = _required(c, "vocabulary size", "vocab_size", "padded_vocab_size")
    width = _number(c, "intermediate_size", "ffn_hidden_size", "n_inner") or 4 * hidden
    attention = _attention(c, hidden)
    experts = _number(c, "num_local_experts", "num_experts", "n_routed_experts",
                      "moe_num_experts", allow_zero=True)
    tied = c.get("tie_word_embeddings")
    if tied is None:
        tied = str(c.get("model_type", "")).lower() in TIED_BY_DEFAULT
    embeddings = vocab * hidden * (1 if tied is True else 2)
    if not experts:
        total = layers * (attention + _mlp(c, hidden, width)) + embeddings
        return total, total, int(layers), int(hidden), int(vocab)
    expert_width = _number(c, "moe_intermediate_size") or width
    chosen = _number(c, "num_experts_per_tok", "moe_topk", "moe_k", default=2.0) or 2.0
    shared_count = _number(c, "n_shared_experts", "moe_num_shared_experts", "num_shared_expert",
                           allow_zero=True) or 0.0
    if str(c.get("model_type", "")).lower() in ONE_SHARED_EXPERT:
        shared_count = 1.0
    shared = shared_count * expert_width + (
        _number(c, "shared_expert_intermediate_size", allow_zero=True) or 0.0)
    dense_layers = min(layers, _number(c, "first_k_dense_replace", "moe_layer_start_index",
                                       allow_zero=True) or 0.0)
    step = _number(c, "decoder_sparse_step", "interleave_moe_layer_step", default=1.0) or 1.0
    sparse = math.ceil((layers - dense_layers) / step)
    dense_layers = layers - sparse
    # A dense layer between expert layers may be wider than an expert (Llama 4 Maverick).
    dense_width = _number(c, "intermediate_size_mlp") or width
    one = _mlp(c, hidden, expert_width)
    shared_mlp = _mlp(c, hidden, shared) if shared else 0.0
    router = hidden * experts
    dense = dense_layers * _mlp(c, hidden, dense_width)
    total = layers * attention + dense + sparse * (experts * one + shared_mlp + router) + embeddings
    active = (layers * attention + dense
              + sparse * (min(chosen, experts) * one + shared_mlp + router) + embeddings)
    return total, active, int(layers), int(hidden), int(vocab)


def _vision(c: Mapping[str, Any]) -> float:
    """Parameters of a vision tower (a ViT), roughly: attention and an MLP per layer, and the
    patch mergers that hand its output to the language model where the configuration has them."""
    hidden = _number(c, "embed_dim", "hidden_size", "width") or 0.0
    layers = _number(c, "num_hidden_layers", "depth", "layers") or 0.0
    # Llama 3.2 Vision's tower has global layers after its local ones.
    layers += _number(c, "num_global_layers", allow_zero=True) or 0.0
    if not hidden or not layers or layers > MAX_LAYERS:
        return 0.0
    width = _number(c, "intermediate_size") or hidden * (_number(c, "mlp_ratio") or 4.0)
    gated = str(c.get("hidden_act", "")).lower() in GATED_ACTIVATIONS
    tower = layers * (4 * hidden * hidden + (3 if gated else 2) * hidden * width)
    out = _number(c, "out_hidden_size")
    if out:  # Qwen-VL: an MLP merges each square of patches into one language-model token
        merged = hidden * (_number(c, "spatial_merge_size", default=2.0) or 2.0) ** 2
        deepstack = c.get("deepstack_visual_indexes")
        mergers = 1 + (len(deepstack) if isinstance(deepstack, list) else 0)
        tower += mergers * (merged * merged + merged * out)
    return tower


def parse_config(text: str | bytes, name: str, source: Source = "config",
                 params_b: float | None = None) -> Shape:
    """The shape a config.json describes. `params_b`: the published weights' count (the Hub's
    safetensors metadata), which is used over the count from the layers when given."""
    if len(text) > MAX_BYTES:
        raise ShapeError(f"config.json is over {MAX_BYTES // 1_000_000} MB; a model's "
                         "configuration is a few KB")
    try:
        config = loads(text, MAX_DEPTH)
    except UnicodeDecodeError:
        raise ShapeError("config.json is not UTF-8 text") from None
    except ValueError as exc:
        raise ShapeError(f"config.json is not JSON ({str(exc)[:80]})") from None
    if not isinstance(config, dict):
        raise ShapeError("config.json is not a JSON object")
    return shape_of_config(config, name, source, params_b)


def shape_of_config(config: Mapping[str, Any], name: str, source: Source = "config",
                    params_b: float | None = None) -> Shape:
    """The shape a parsed configuration describes (config.json's names and values)."""
    text_part: Mapping[str, Any] = config
    for key in TEXT_PARTS:
        if isinstance(config.get(key), dict):
            text_part = {**config[key], "tie_word_embeddings": config[key].get(
                "tie_word_embeddings", config.get("tie_word_embeddings"))}
            break
    total, active, layers, hidden, vocab = _text(text_part)
    vision_config = config.get("vision_config")
    vision = isinstance(vision_config, dict)
    if isinstance(vision_config, dict):
        tower = _vision(vision_config)
        total += tower
        active += tower
    if params_b is not None:
        active = active * (params_b * 1e9 / total) if total else active
        total = params_b * 1e9
    if total / 1e9 > LARGEST_B:
        raise ShapeError(f"config.json describes {total / 1e9:,.0f} billion parameters, "
                         "beyond any model")
    moe = active < total * 0.95
    if not name:  # the name the configuration itself carries, else its architecture's
        named = config.get("_name_or_path") or next(iter(config.get("architectures") or []), "")
        name = str(named)[:80] if isinstance(named, str) and named.strip() else "the model"
    return Shape(name=name, params_b=total / 1e9, active_b=active / 1e9 if moe else None,
                 layers=layers, hidden=hidden, vocab=vocab, vision=vision, source=source)


def of_known_model(model: KnownModel) -> Shape:
    """A known model's shape: its sizes as the data says them, and the layers, hidden size and
    vocabulary of its configuration where the data has one."""
    counted = shape_of_config(model.config, model.display) if model.config else None
    return Shape(name=model.display, params_b=model.params_b, active_b=model.active_b,
                 layers=counted.layers if counted else None,
                 hidden=counted.hidden if counted else None,
                 vocab=counted.vocab if counted else None,
                 vision=model.kind == "vl", source="known-models")
