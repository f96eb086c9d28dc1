"""Drop-in for ``sacrebleu.tokenizers`` (2.6.0): the TER tokenizer (``tokenizer_ter.TercomTokenizer``)."""
