"""Drop-in facade for squad (call signatures and result shapes as squad)."""
