"""Reading and writing data: text files, tables, columns."""
