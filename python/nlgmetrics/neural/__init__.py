"""Model-based metrics' machinery: model folders, the encoder runtime, batching and the encoding cache.

Nothing here imports a deep-learning framework at import time: the encoder backends (ONNX Runtime by
default) are imported when a model is first loaded.
"""
