"""What ``compare`` says about statistical power: the smallest BLEU difference the test set detects with 80% power
(the minimum detectable difference, MDE), each pair's observed difference beside it, and with ``--power DELTA``
the segments a test set needs for DELTA; as text and as the JSON's ``test_set`` fields. The method is
``bleu_core.significance.power``'s (Card et al. 2020); its assumptions are stated wherever the number is."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from bleu_core.significance.power import Power

    from .compare_run import MetricResult, Run

__all__ = ["CITATION", "print_power", "test_set_json"]

CITATION: Final = 'Card et al. 2020, "With Little Power Comes Great Responsibility", EMNLP'
ASSUMPTIONS: Final = (
    "the {unit}s are independent draws from one population (so the spread shrinks as 1/sqrt(n)), the difference "
    "is near normal, and its spread at the true difference is the one measured at the observed one"
)


def _method(p: Power) -> str:
    from bleu_core.significance.power import critical_z

    tail = "one-tailed, as sacreBLEU's paired bootstrap" if p.test == "bs" else "two-tailed"
    z = critical_z(p.alpha, p.test)
    return (
        f"MDE = (z_crit + z_power) x se = ({z:.3f} + {_z(p.power):.3f}) x se ({tail}, alpha {p.alpha:g}), se = the "
        f"spread of the difference over {p.n_samples} paired bootstrap resamples of the {p.n} {p.unit}s "
        f"(seed {p.seed})"
    )


def _z(power: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(power)


def _needed(powers: tuple[Power, ...], delta: float) -> int:
    """Units a test set needs for ``delta`` at the test set's (median) MDE."""
    from bleu_core.significance.power import median_mde

    p = powers[0]
    return max(1, math.ceil(p.n * (median_mde(powers) / abs(delta)) ** 2 - 1e-9))


def test_set_json(result: MetricResult, run: Run) -> dict[str, Any]:
    """``mde`` (BLEU points: the median over the pairs with the first system) and ``power``: the method, its
    assumptions, the citation and each pair's difference, se and MDE (and the units ``--power`` asks about)."""
    from bleu_core.significance.power import median_mde

    powers = result.power
    if not powers:
        return {"mde": None}
    p = powers[0]
    pairs = [
        {
            "system": run.names[j + 1],
            "against": run.names[0],
            "difference": q.difference,
            "se": q.se,
            "mde": q.mde,
            "detectable": abs(q.difference) >= q.mde,
            **({"needed": q.needed(run.power_delta)} if run.power_delta is not None else {}),
        }
        for j, q in enumerate(powers)
    ]
    out: dict[str, Any] = {
        "mde": median_mde(powers),
        "power": {
            "power": p.power,
            "alpha": p.alpha,
            "test": p.test,
            "unit": p.unit,
            "method": _method(p),
            "assumptions": ASSUMPTIONS.format(unit=p.unit),
            "citation": CITATION,
            "signature": p.signature,
            "pairs": pairs,
        },
    }
    if run.power_delta is not None:
        out["power"]["delta"] = run.power_delta
        out["power"]["needed"] = _needed(powers, run.power_delta)
    return out


def print_power(result: MetricResult, run: Run) -> None:
    """The MDE line, each pair's difference against it, ``--power``'s answer, the method and its signature."""
    from bleu_core.significance.power import median_mde

    powers = result.power
    if not powers:
        return
    p = powers[0]
    pct = f"{p.power:.0%}"
    print(
        f"\npower: this test set detects differences of about {median_mde(powers):.2f} BLEU with {pct} power "
        f"(the median over the {len(powers)} pair(s) with {run.names[0]}; {p.n} {p.unit}s)"
    )
    for j, q in enumerate(powers):
        big = abs(q.difference) >= q.mde
        verdict = "at least the MDE" if big else "below the MDE: a true difference this small is often missed"
        print(f"  {run.names[j + 1]} − {run.names[0]} = {q.difference:+.2f} (MDE {q.mde:.2f}; {verdict})")
    if run.power_delta is not None:
        print(
            f"  to detect {abs(run.power_delta):g} BLEU with {pct} power: about {_needed(powers, run.power_delta)} "
            f"{p.unit}s (this test set has {p.n})"
        )
    print(f"  method: {_method(p)}; assumes {ASSUMPTIONS.format(unit=p.unit)} ({CITATION})")
    print(f"  power signature: {p.signature}")
