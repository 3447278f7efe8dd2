"""import-linter contract types of our own (``contract_types`` in pyproject.toml).

``allow_list``: the ``source_modules`` (and everything under them) may import
the standard library, themselves and the ``allowed_modules`` only; anything
else, a package installed or one of ours, breaks the contract. import-linter's
own types forbid what is listed, so a new module would be allowed unnoticed.
"""

from __future__ import annotations

import sys

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def _within(module: str, packages: set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


class AllowListContract(Contract):
    """Source modules import the standard library, themselves and ``allowed_modules``."""

    type_name = "allow_list"

    source_modules = fields.ListField(subfield=fields.StringField())
    allowed_modules = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        sources = set(self.source_modules)  # type: ignore[arg-type]
        allowed = sources | set(self.allowed_modules or [])  # type: ignore[arg-type]
        outside = []
        for source in sorted(sources):
            for importer in sorted(graph.find_descendants(source) | {source}):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    top = imported.split(".")[0]
                    if top in sys.stdlib_module_names or _within(imported, allowed):
                        continue
                    outside.append((importer, imported))
        return ContractCheck(kept=not outside, metadata={"outside": outside})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, imported in check.metadata["outside"]:
            output.print_error(f"{importer} imports {imported}, which is not allowed")
            output.new_line()
