"""The repository stands alone: every document its files cite is in it.

A citation is a path ending in ``.md`` (``docs/site.md``, ``README.md``,
``[rules](rules.md)``). A bare name is read as a Markdown link is, from the
citing file's folder; anything else from the repository's root. A citation
followed by a quoted section (``docs/site.md, "Seats"``) must also find that
section among the document's headings. Nothing may point outside the
repository (a sibling checkout, a specification folder), and the source texts
the rules come from are named by what they are, not by a number.

A cited Python file (a path with a folder, ending in ``.py``: ``rooms/views.py``)
must exist too, and a name cited with it must be defined there (a function, a
class, a method or a module-level name): a test's node id
(``tests/site/test_x.py::test_y``) or a name in backticks right after the
backticked path (```domino_site/views.py` `manifest```), issue 39.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SKIP_DIRS = {".git", "node_modules", "staticfiles", "artifacts", "__pycache__", "vendor", "locale"}
TEXT_SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".toml", ".txt", ".yml", ".yaml", ".cfg"}
TEXT_NAMES = {"Makefile", "Procfile", "Dockerfile", "run"}

# A path ending in .md, not part of a longer word or URL, optionally followed by
# a quoted section: `docs/site.md, "Seats"` or `docs/site.md "Seats"`.
CITATION = re.compile(
    r"(?<![\w/.:-])((?:\.{1,2}/)?(?:[\w.-]+/)*[\w-]+\.md)(?:#[\w-]+)?"
    r'(?:(?:,|:)?\s?["“]([^"”\n]{2,80})["”])?'
)
# A Python file with at least one folder, and a name cited with it: a node id
# (``path.py::name``) or a backticked name right after the backticked path.
PY_CITATION = re.compile(
    r"(?<![\w/.:*-])((?:\.{1,2}/)?(?:[\w.-]+/)+[\w-]+\.py)(?![\w*])"
    r"(?:::([A-Za-z_][\w.]*)|` `([A-Za-z_][\w.]*)`)?"
)
OUTSIDE = re.compile(r"\.\./shared|(?<![\w-])shared/(?:spec|seeds)|(?<![\w/.-])spec/\w+\.md")
SOURCE_BY_NUMBER = re.compile(r"\bseeds? ?\(?0\d\d\b|\bseeds/")
HEADING = re.compile(r"^#{1,6}\s+(.*)$", re.MULTILINE)


def _text_files() -> list[Path]:
    files = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIP_DIRS or p.startswith(".venv") for p in parts[:-1]):
            continue
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES):
            if path != Path(__file__).resolve():
                files.append(path)
    return sorted(files)


def _resolve(citing: Path, cited: str) -> Path:
    """From the citing file's folder (as a Markdown link), else from the root."""
    near = (citing.parent / cited).resolve()
    if near.is_file() or cited.startswith("."):
        return near
    return (ROOT / cited).resolve()


@cache
def _headings(document: Path) -> tuple[str, ...]:
    text = document.read_text(encoding="utf-8")
    return tuple(h.replace("`", "").strip().lower() for h in HEADING.findall(text))


@cache
def _python_files() -> tuple[Path, ...]:
    return tuple(p for p in _text_files() if p.suffix == ".py") + (Path(__file__).resolve(),)


def _resolve_py(citing: Path, cited: str) -> Path:
    """As `_resolve`; a shortened path (``infra/django.py``) that ends exactly
    one file of the repository is that file."""
    found = _resolve(citing, cited)
    if found.is_file():
        return found
    ends = [p for p in _python_files() if p.as_posix().endswith("/" + cited.lstrip("./"))]
    return ends[0] if len(ends) == 1 else found


@cache
def _names(source: Path) -> frozenset[str]:
    """The functions, classes (and their methods) and assigned names of a file."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _defines(source: Path, name: str) -> bool:
    """``name`` (``f``, ``Class.method``) is defined in ``source``."""
    return all(part in _names(source) for part in name.split("."))


def _problems(path: Path) -> list[str]:
    where = path.relative_to(ROOT)
    text = path.read_text(encoding="utf-8", errors="replace")
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in CITATION.finditer(line):
            cited, section = match.group(1), match.group(2)
            document = _resolve(path, cited)
            if ROOT not in document.parents or not document.is_file():
                found.append(f"{where}:{number} cites {cited}, which is not in the repository")
            elif section and not any(section.lower() in h for h in _headings(document)):
                found.append(f'{where}:{number} cites {cited} "{section}": no such heading there')
        for match in PY_CITATION.finditer(line):
            cited, name = match.group(1), match.group(2) or match.group(3)
            if re.match(r"[A-Z_]+/", cited):  # a placeholder: DIR/bench/load.py
                continue
            source = _resolve_py(path, cited)
            if ROOT not in source.parents or not source.is_file():
                found.append(f"{where}:{number} cites {cited}, which is not in the repository")
            elif name and not _defines(source, name):
                found.append(f"{where}:{number} cites {cited} {name}: not defined there")
        if OUTSIDE.search(line):
            found.append(f"{where}:{number} points outside the repository: {line.strip()[:80]}")
    return found


def _numbered_sources(path: Path) -> list[str]:
    where = path.relative_to(ROOT)
    text = path.read_text(encoding="utf-8", errors="replace")
    return [
        f"{where}:{number}: {line.strip()[:80]}"
        for number, line in enumerate(text.splitlines(), 1)
        if SOURCE_BY_NUMBER.search(line)
    ]


def test_every_cited_document_is_in_the_repository():
    problems = [p for path in _text_files() for p in _problems(path)]
    assert not problems, "cite docs/<name>.md and an existing heading:\n" + "\n".join(problems)


def test_the_source_texts_are_named_not_numbered():
    lines = [p for path in _text_files() for p in _numbered_sources(path)]
    assert not lines, (
        'name a source text by what it is ("the games-portal rules"), not by number:\n'
        + "\n".join(lines)
    )


def test_the_scan_sees_a_missing_document_and_a_missing_section(tmp_path, monkeypatch):
    """The checker itself: a wrong citation and a wrong section are both caught."""
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "site.md").write_text("# Site\n\n## Seats\n", encoding="utf-8")
    code = tmp_path / "code.py"
    code.write_text(
        '# docs/site.md, "Seats"\n# docs/site.md "Rooms"\n# gone' + ".md\n# ../shared/spec/x\n",
        encoding="utf-8",
    )
    problems = _problems(code)
    assert len(problems) == 3, problems
    assert 'code.py:2 cites docs/site.md "Rooms"' in problems[0]
    assert "code.py:3 cites gone.md" in problems[1]
    assert "outside the repository" in problems[2]


def test_the_scan_sees_a_missing_python_file_and_a_missing_name(tmp_path, monkeypatch):
    """Cited ``.py`` paths must exist, and the names cited with them be defined."""
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    _python_files.cache_clear()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        "X = 1\n\nclass Box:\n    def open(self):\n        pass\n", encoding="utf-8"
    )
    doc = tmp_path / "doc.md"
    doc.write_text(
        "`pkg/mod.py` `Box.open`, pkg/mod.py::X\n"
        "`pkg/mod.py` `shut`\n"
        "pkg/gone" + ".py\n"
        "tests/x.py::test_" + "y\n",
        encoding="utf-8",
    )
    problems = _problems(doc)
    _python_files.cache_clear()
    assert len(problems) == 3, problems
    assert "doc.md:2 cites pkg/mod.py shut: not defined there" in problems[0]
    assert "doc.md:3 cites pkg/gone.py" in problems[1]
    assert "doc.md:4 cites tests/x.py" in problems[2]
