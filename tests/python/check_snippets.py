"""Runs every function of the lessons' Python (www/python/) through the notebook's own
checker (check.py) against the core's test vectors and the golden cases of the fixture.
Usage: check_snippets.py CASES.json PYTHON_DIR REFERENCE_CASES.json
Exit 0 when every case of every function passes, 1 otherwise (the checker says which)."""
import importlib.util
import json
import pathlib
import sys

import numpy as np

cases_file, python_dir, fixture_file = sys.argv[1:4]
cases = json.loads(pathlib.Path(cases_file).read_text(encoding="utf-8"))
fixture = json.loads(pathlib.Path(fixture_file).read_text(encoding="utf-8"))
python_dir = pathlib.Path(python_dir)

# Only the PyTorch snippet needs torch; its NumPy twin (surrogate_grad) is checked always.
TORCH_ONLY = {"surrogate_loss"}
functions = sorted(p.stem for p in python_dir.glob("*.py") if p.stem != "check" and p.stem not in TORCH_ONLY)

golden = 0
for name in functions:
    for case in fixture["functions"].get(name, []):
        cases.setdefault(name, []).append(
            {
                "function": name,
                "about": f"эталонный случай {case['name']}",
                "inputs": case["inputs"],
                "error": case["error"],
                "expected": case.get("expected"),
                "mistakes": [],
            }
        )
        golden += 1

ns = {"CASES": cases, "__name__": "snippets"}
exec(compile((python_dir / "check.py").read_text(encoding="utf-8"), "check.py", "exec"), ns)
for name in functions:
    path = python_dir / f"{name}.py"
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), ns)

failed = []
for name in functions:
    if name not in ns or not callable(ns[name]):
        print(f"✗ {name}.py does not define {name}()")
        failed.append(name)
    elif not cases.get(name):
        print(f"✗ {name}: no test vector (neither the core's nor the fixture's)")
        failed.append(name)
    elif not ns["check"](ns[name], show=5):
        failed.append(name)

if importlib.util.find_spec("torch") is None:
    print("surrogate_loss.py (PyTorch): torch is not installed; its NumPy twin surrogate_grad is checked above")
else:
    import torch

    exec(compile((python_dir / "surrogate_loss.py").read_text(encoding="utf-8"), "surrogate_loss.py", "exec"), ns)
    for case in cases["surrogate_grad"]:
        logits = torch.tensor(case["inputs"]["logits"], dtype=torch.float64, requires_grad=True)
        weights = torch.tensor(case["inputs"]["weights"], dtype=torch.float64, requires_grad=True)
        loss = ns["surrogate_loss"](logits, torch.tensor(case["inputs"]["actions"]), weights)
        loss.backward()
        ok = np.allclose(logits.grad.numpy(), case["expected"]["grad"], rtol=0, atol=1e-12) and weights.grad is None
        print(f"{'✓' if ok else '✗'} surrogate_loss (PyTorch): autograd's gradient against the core's")
        if not ok:
            failed.append("surrogate_loss")

print(f"{len(functions) - len(failed)} passed, {len(failed)} failed ({golden} golden cases of the fixture among them)")
sys.exit(1 if failed else 0)
