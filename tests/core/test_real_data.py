"""Parity with sacrebleu on the real WMT21/WMT22/TED data through the API (the CLI's JSON on the same data:
tests/cli/test_real_data_cli.py).

Every system of every set, tokenizers 13a and none, the first reference alone and all references together
(``slow``: it runs in ``make test``); the first system of each set in ``make test-core``.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import corpus_bleu
from tests.conftest import RealSet, real_sets
from tests.core.cases import assert_same_as_sacrebleu, sacre_signature, strip_signature

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

SETS = ("wmt21-news-en-de", "wmt22-general-zh-en", "ted-detok", "ted-tok")
TOL = 1e-9


@cache
def _sacre(set_name: str, tokenize: str, nrefs: str, data_dir: Path) -> BLEU:
    s = {x.name: x for x in real_sets(data_dir)}[set_name]
    refs = s.refs() if nrefs == "all" else s.refs()[:1]
    return BLEU(tokenize=tokenize, force=True, references=refs)


def check_system(s: RealSet, path: Path, tokenize: str, nrefs: str, data_dir: Path) -> None:
    refs = s.refs() if nrefs == "all" else s.refs()[:1]
    hyps = s.system(path)
    assert len(hyps) == len(refs[0]), path
    bleu = _sacre(s.name, tokenize, nrefs, data_dir)
    want = bleu.corpus_score(hyps, None)
    got = corpus_bleu(hyps, refs, tokenize=tokenize)
    where = f"{s.name}/{path.name} tok={tokenize} refs={nrefs}"
    assert got.counts == want.counts, where
    assert got.totals == want.totals, where
    assert (got.sys_len, got.ref_len) == (want.sys_len, want.ref_len), where
    assert abs(got.score - want.score) <= TOL, where
    for a, b in zip(got.precisions, want.precisions, strict=True):
        assert abs(a - b) <= TOL, where
    assert strip_signature(got.signature) == sacre_signature(bleu.get_signature().format()), where


# make test-core's real-data parity: 13a against every reference; the other settings are slow (test_every_system
# below runs them on every system)
@pytest.mark.parametrize("nrefs", [pytest.param("one", marks=pytest.mark.slow), "all"])
@pytest.mark.parametrize("tokenize", ["13a", pytest.param("none", marks=pytest.mark.slow)])
@pytest.mark.parametrize("set_name", SETS)
def test_first_system_of_each_set(
    real: dict[str, RealSet], data_dir: Path, set_name: str, tokenize: str, nrefs: str
) -> None:
    s = real[set_name]
    check_system(s, s.sys_paths[0], tokenize, nrefs, data_dir)


@pytest.mark.slow
@pytest.mark.parametrize("tokenize", ["13a", "none"])
@pytest.mark.parametrize("set_name", SETS)
def test_every_system(real: dict[str, RealSet], data_dir: Path, set_name: str, tokenize: str) -> None:
    """Every system through ``corpus_bleu``, against the first reference and against all references."""
    s = real[set_name]
    checked = 0
    for nrefs in ("one", "all") if len(s.ref_paths) > 1 else ("one",):
        refs = s.refs() if nrefs == "all" else s.refs()[:1]
        bleu = _sacre(s.name, tokenize, nrefs, data_dir)
        for path in s.sys_paths:
            hyps = s.system(path)
            got = corpus_bleu(hyps, refs, tokenize=tokenize)
            want = bleu.corpus_score(hyps, None)
            where = f"{s.name}/{path.name} tok={tokenize} refs={nrefs}"
            assert_same_as_sacrebleu(got, want, where, metric=bleu, tol=TOL)
            checked += 1
    print(f"\n[real parity] {set_name} tok={tokenize}: {checked} (system, reference set) pairs")
