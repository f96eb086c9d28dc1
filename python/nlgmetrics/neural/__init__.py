"""The encoder runtime of the model-based metrics (BERTScore, COMET): weights, tokenizers, forward passes.

Nothing here imports a deep-learning framework at module level: ONNX Runtime and ``tokenizers``
(the ``neural`` extra) are imported inside the functions that need them, and a missing one raises an
``ImportError`` that names the extra (``pip install "nlgmetrics[neural]"``).

| module | what |
|---|---|
| ``weights`` | ``read_weights``: safetensors and torch zip checkpoints, read without torch |
| ``tokenizer`` | ``load_tokenizer``: WordPiece / byte-level BPE / SentencePiece ids equal to transformers' |
| ``encoder`` | ``EncoderConfig``, ``Encoder.hidden_states``: ids and masks in, chosen layers out |
| ``backends`` | one module per runtime (``numpy``, ``onnx``, ``torch``) |
| ``onnx_proto`` | the ONNX protobuf messages of the encoder graph, written as bytes (no ``onnx`` package) |
| ``layer_summaries`` | per-layer pooled vectors and layer-norm statistics: what COMET's layer mix needs |
| ``models`` | ``find_model``: a path, ``$NLGMETRICS_MODELS``, the Hugging Face cache; downloads only when allowed |
| ``loaded`` | a model folder loaded once per process (tokenizer + encoder + fingerprint) |
| ``text_encoder`` | texts → ids → hidden states in length-sorted, token-budget batches, each text once |
| ``cache`` | the per-process, byte-bounded cache of encodings (``nlgmetrics.clear_neural_cache()``) |
| ``greedy`` | BERTScore's greedy matching (bert_score 0.3.13's arithmetic and quirks) |
| ``comet_model`` | a COMET checkpoint: layer mix, pooling, estimator head |
"""

NEURAL_EXTRA_HINT = 'pip install "nlgmetrics[neural]"'


def require(module_name: str):
    """Import ``module_name`` or raise an ImportError naming the ``neural`` extra.

    >>> require("json").__name__
    'json'
    """
    import importlib

    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        raise ImportError(
            f"the model-based metrics need the Python package {module_name!r}, which is not installed: "
            f"{NEURAL_EXTRA_HINT}"
        ) from error
