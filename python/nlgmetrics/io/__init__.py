"""Reading inputs (aligned text files in chunks, tables, columns) and formatting tables."""
