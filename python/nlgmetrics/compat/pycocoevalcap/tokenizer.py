"""pycocoevalcap's ``PTBTokenizer`` without Java (pycocoevalcap/tokenizer/ptbtokenizer.py).

>>> PTBTokenizer().tokenize({7: [{"caption": "A dog's (red) ball."}]})
{7: ["a dog 's -lrb- red -rrb- ball"]}

Known deviation: pycocoevalcap passes captions containing other line breaks (``\\r``, U+2028, …) to
the jar, which then splits them and misaligns every later caption; here they are plain spaces.
"""

from __future__ import annotations

from nlgmetrics.tasks.captioning import tokenize_caption_dict

# pycocoevalcap's list of tokens removed after tokenization (upper case, so "-lrb-" survives).
PUNCTUATIONS = ["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-",
                ".", "?", "!", ",", ":", "-", "--", "...", ";"]


class PTBTokenizer:
    """Same call and result shape as pycocoevalcap's: ``{image: [{"caption": str}, …]}`` → ``{image: [str, …]}``."""

    def tokenize(self, captions_for_image):
        return tokenize_caption_dict(captions_for_image, "captions_for_image")
