"""ROUGE as rouge_score computes it (default) and as ROUGE-1.5.5.pl does (preset rouge155), with their bootstraps."""
