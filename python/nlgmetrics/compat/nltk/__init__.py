"""Drop-in facade for nltk (call signatures and result shapes as nltk)."""
from .meteor import meteor_score, single_meteor_score
