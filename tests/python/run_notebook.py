"""Executes a notebook in a fresh Jupyter kernel (nbclient, as Jupyter's «Run All» does) and
prints every code cell's source and text output as JSON on stdout.
Usage: run_notebook.py NOTEBOOK.ipynb"""
import json
import sys

import nbformat
from nbclient import NotebookClient

nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=120, kernel_name="python3").execute()
cells = []
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    errors = [o for o in cell.outputs if o.output_type == "error"]
    cells.append({"source": cell.source, "text": text, "error": bool(errors)})
json.dump(cells, sys.stdout, ensure_ascii=False)
