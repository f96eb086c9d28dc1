"""Reading inputs (aligned text files, in chunks) and formatting tables."""
