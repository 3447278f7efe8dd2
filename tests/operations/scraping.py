"""Reading ``/metrics`` the way Prometheus does: the text format, parsed by
prometheus-client's own parser, as ``{(sample name, sorted labels): value}``."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Samples:
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample ``name`` with exactly ``labels`` (0 when absent)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of every sample ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))


def scrape(client: Any, **extra: Any) -> Samples:
    """``GET /metrics`` from this host (the Django test client's REMOTE_ADDR is 127.0.0.1)."""
    response = client.get("/metrics", **extra)
    assert response.status_code == 200, response.status_code
    return parse(response.content.decode())
