"""The plumbing that leans on what a library does not document.

One module per library. Each checks at import that the installed version is
one it was written for (`domino_site.infra.versions.require`), names in a
comment every undocumented thing it uses and why, and has tests
(tests/infra/) that fail when that behaviour changes. The apps reach these
modules only through their public functions (the import contract "Apps reach
library internals only through domino_site.infra" in pyproject.toml).
"""
