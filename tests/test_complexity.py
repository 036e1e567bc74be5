"""Issue 22: no function of webapp/games/ is graded worse than C by radon's cyclomatic
complexity (A-C: up to 20 paths; D from 21). A function that grows past it is split where
its parts have names of their own, as the checker pages' were."""
from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_rank
from radon.visitors import ComplexityVisitor, Function

GAMES = Path(__file__).resolve().parents[1] / "webapp" / "games"
WORST = "C"  # the worst grade allowed


def graded(path: Path) -> list[tuple[str, int, int, str]]:
    """Each function, method and nested function of a module: (name, line, complexity, grade)."""
    out = []
    pending = list(ComplexityVisitor.from_code(path.read_text(encoding="utf-8")).blocks)
    while pending:
        block = pending.pop()
        if isinstance(block, Function):
            out.append((block.fullname, block.lineno, block.complexity, cc_rank(block.complexity)))
            pending.extend(block.closures)
    return out


@pytest.mark.parametrize("path", sorted(GAMES.rglob("*.py")), ids=lambda p: str(p.relative_to(GAMES)))
def test_no_function_above_grade_c(path):
    too_complex = [row for row in graded(path) if row[3] > WORST]
    assert not too_complex, f"{path.name}: (name, line, complexity, grade) {too_complex}"


def test_the_grading_sees_a_complex_function(tmp_path):
    branches = "\n".join(f"    if x == {k}:\n        return {k}" for k in range(25))
    module = tmp_path / "complex.py"
    module.write_text(f"def many(x):\n{branches}\n    return -1\n", encoding="utf-8")
    assert graded(module) == [("many", 1, 26, "D")]
