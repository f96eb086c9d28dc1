"""Drop-in facade for pycocoevalcap (call signatures and result shapes as pycocoevalcap)."""
from .meteor import Meteor
