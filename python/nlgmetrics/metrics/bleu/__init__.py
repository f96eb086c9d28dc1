"""BLEU: the sacreBLEU preset (default) and the NLTK and pycocoevalcap presets beside it."""
