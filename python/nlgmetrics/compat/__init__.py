"""Drop-in facades with other libraries' exact call signatures and result shapes.

Each subpackage mirrors one library: ``compat.sacrebleu``, ``compat.nltk``, ``compat.pycocoevalcap``,
``compat.rouge_score``, ``compat.squad``. Swap the import, keep the code, get the same numbers faster.
"""
