"""Drop-in facade for nltk (call signatures and result shapes as nltk)."""
