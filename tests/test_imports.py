"""The shape DESIGN.md promises, checked on the source: rulebook/ never imports Flask (or
anything of webapp/), no module imports another module's private name, and the modules
of rulebook/ and webapp/ import one another without a circle (imports inside a function
run late and are left out: they are how a module reaches one that imports it)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rulebook", "webapp")


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = modules()


def absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The dotted name an `from ... import` names, relative levels resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str, top_level_only: bool) -> list[tuple[str, list[str]]]:
    """(imported module, names taken from it) for each import statement of `module`."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    out = []
    for node in nodes:
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            target = absolute(module, path, node)
            names = [alias.name for alias in node.names]
            out.append((target, names))
            # `from . import options`: a module, not a name
            out += [(f"{target}.{name}", []) for name in names if f"{target}.{name}" in MODULES]
    return out


def test_rulebook_never_imports_flask_or_the_web_layer():
    for module in MODULES:
        if module.startswith("rulebook"):
            for target, _names in imports(module, top_level_only=False):
                assert not target.startswith(("flask", "webapp", "werkzeug", "jinja2")), (
                    f"{module} imports {target}")


def test_no_module_imports_another_modules_private_name():
    for module in MODULES:
        for target, names in imports(module, top_level_only=False):
            if target.split(".")[0] not in PACKAGES or target == module:
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{module} imports {private} from {target}"


def test_no_import_circle():
    graph = {module: {target for target, _ in imports(module, top_level_only=True)
                      if target in MODULES and target != module}
             for module in MODULES}
    # a package imports its own modules as it starts: an edge to a parent package is the
    # way down into it, so only the modules' own edges can close a circle
    for module, targets in graph.items():
        graph[module] = {t for t in targets if not module.startswith(t + ".")}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(module):]
                                                                + [module]))
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
