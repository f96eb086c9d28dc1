"""One module per runtime; each exposes a class ``XBackend(config, params, num_blocks, ...)`` with
``hidden_states(ids, mask, token_types, positions, layers) -> float32 [len(layers), B, L, H]``, where
``params`` holds the encoder's float32 arrays under the canonical names of ``nlgmetrics.neural.encoder``
(``word``, ``position``, ``token_type``, ``ln_w``, ``ln_b``, and ``{block}.q_w`` … ``{block}.ln2_b``) and the
inputs are already validated (int64 ``[B, L]``)."""
