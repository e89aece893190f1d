"""``-t TESTSET -l SRC-TGT`` and ``--echo``: a test set's text from sacreBLEU's local cache, never downloaded.

sacreBLEU keeps each test set under ``$SACREBLEU`` (default ``~/.sacrebleu``): the archive and its files in
``NAME/raw/``, and each field as plain text in ``NAME/NAME.SRC-TGT.FIELD`` (``ref:A`` as ``ref-A``). Here a field
is read from that text file when it is there, or from the raw WMT XML file (WMT21 on) when only that is, exactly
as sacreBLEU would write it; sacreBLEU's own code is asked only what a test set is (its ``DATASETS`` table, which
reading never downloads). When neither is there, one line says so and that nothing is downloaded (exit 2).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

if TYPE_CHECKING:
    from bleu_core.data.corpus import TextFile

__all__ = ["cache_dir", "echo", "reference_files"]


def cache_dir() -> str:
    """sacreBLEU's cache: ``$SACREBLEU``, else ``~/.sacrebleu`` (read when called, as sacreBLEU reads it at start)."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def _dataset(test_set: str, langpair: str | None) -> Any:
    from sacrebleu.dataset import DATASETS

    if test_set not in DATASETS:
        raise InputError(f"unknown test set {test_set!r} (sacreBLEU's --list names them)", "-t")
    if not langpair:
        raise InputError(
            f"give the language pair of {test_set} (e.g. -l {next(iter(DATASETS[test_set].langpairs))})", "-l"
        )
    dataset = DATASETS[test_set]
    if langpair not in dataset.langpairs:
        raise InputError(f"{test_set} has no {langpair} (it has {', '.join(dataset.langpairs)})", "-l")
    return dataset


def _text_path(dataset: Any, langpair: str, field: str) -> str:
    """``NAME.SRC-TGT.FIELD`` in the cache (``_get_txt_file_path``, computed here with today's ``$SACREBLEU``)."""
    name = dataset.name.replace("/", "_")
    return os.path.join(cache_dir(), dataset.name, f"{name}.{langpair}.{field.replace(':', '-')}")


def _missing(test_set: str, langpair: str) -> InputError:
    return InputError(
        f"{test_set} {langpair} is not in sacreBLEU's local cache ({cache_dir()}); nothing is downloaded: fetch it "
        f"once with `sacrebleu -t {test_set} -l {langpair} --echo src > /dev/null`, or set SACREBLEU",
        "-t",
    )


def _raw_fields(dataset: Any, langpair: str) -> dict[str, list[str]] | None:
    """Every field of a WMT XML test set read from its raw file (what sacreBLEU writes to the text files), or None
    when the set is not WMT XML or the file is not in the cache."""
    from sacrebleu.dataset.wmt_xml import WMTXMLDataset

    if not isinstance(dataset, WMTXMLDataset):
        return None
    data = dataset.langpairs[langpair]
    rel = data["path"] if isinstance(data, dict) else data[0]
    raw = os.path.join(cache_dir(), dataset.name, "raw", rel)
    if not os.path.isfile(raw):
        return None
    with open(raw, encoding="utf-8") as fh:
        fields = dataset._unwrap_wmt21_or_later(fh)  # type: ignore[no-untyped-call]
    return {k: [re.sub(r"\s+", " ", line.strip()) for line in v] for k, v in fields.items()}


def _fields_on_disk(dataset: Any, langpair: str) -> list[str]:
    prefix = f"{dataset.name.replace('/', '_')}.{langpair}."
    folder = os.path.join(cache_dir(), dataset.name)
    found = (
        sorted(f[len(prefix) :] for f in os.listdir(folder) if f.startswith(prefix)) if os.path.isdir(folder) else []
    )
    return [f.replace("ref-", "ref:", 1) if f.startswith("ref-") else f for f in found]


def _reference_fields(dataset: Any, langpair: str, available: Sequence[str]) -> list[str]:
    """The fields sacreBLEU scores against: WMT XML sets name theirs (``refs=["A"]``: ``ref:A``), the others every
    field that starts with ``ref``."""
    from sacrebleu.dataset.wmt_xml import WMTXMLDataset

    if isinstance(dataset, WMTXMLDataset):
        allowed = dataset._get_langpair_allowed_refs(langpair)  # type: ignore[no-untyped-call]
        return [f for f in available if f in allowed]
    return [f for f in available if f.startswith("ref")]


def _read_field(dataset: Any, test_set: str, langpair: str, field: str) -> TextFile:
    from bleu_core.data.corpus import TextFile
    from bleu_core.data.readers import read_text_file

    path = _text_path(dataset, langpair, field)
    if os.path.isfile(path) and os.path.getsize(path) > 0:
        return read_text_file(path)
    raw = _raw_fields(dataset, langpair)
    if raw is None or field not in raw:
        raise _missing(test_set, langpair)
    return TextFile(f"{test_set}:{langpair}:{field}", tuple(raw[field]))


def _available(dataset: Any, test_set: str, langpair: str) -> list[str]:
    raw = _raw_fields(dataset, langpair)
    fields = list(raw) if raw is not None else _fields_on_disk(dataset, langpair)
    if not fields:
        raise _missing(test_set, langpair)
    return fields


def reference_files(test_set: str, langpair: str | None) -> list[TextFile]:
    """The references sacreBLEU's ``-t TESTSET -l SRC-TGT`` scores against, from the local cache.

    Raises:
        InputError: an unknown test set or pair, or a test set that is not in the cache (nothing is downloaded).
    """
    dataset = _dataset(test_set, langpair)
    assert langpair is not None
    fields = _reference_fields(dataset, langpair, _available(dataset, test_set, langpair))
    if not fields:
        raise InputError(f"{test_set} {langpair} has no reference in sacreBLEU's cache ({cache_dir()})", "-t")
    return [_read_field(dataset, test_set, langpair, f) for f in fields]


def echo(test_set: str, langpair: str | None, requested: Sequence[str]) -> list[str]:
    """The lines of sacreBLEU's ``--echo FIELD...``: the fields side by side, tab-separated (``all``: every field;
    ``ref``: the first reference where the set has no field of that name).

    Raises:
        InputError: as :func:`reference_files`, or a field the test set does not have (naming the ones it has).
    """
    dataset = _dataset(test_set, langpair)
    assert langpair is not None
    available = _available(dataset, test_set, langpair)
    fields = list(available) if list(requested) == ["all"] else list(requested)
    refs = [f for f in available if f.startswith("ref")]
    fields = [min(refs) if f == "ref" and "ref" not in available and refs else f for f in fields]
    for f in fields:
        if f not in available:
            raise InputError(f"{test_set} {langpair} has no field {f!r} (it has: {', '.join(available)})", "--echo")
    columns = [_read_field(dataset, test_set, langpair, f).lines for f in fields]
    return ["\t".join(row) for row in zip(*columns, strict=False)]
