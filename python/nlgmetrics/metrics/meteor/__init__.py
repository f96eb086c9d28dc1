"""METEOR 1.5 (the jar's numbers), with the NLTK and textbook presets, and its resources (paraphrase, synonyms)."""
