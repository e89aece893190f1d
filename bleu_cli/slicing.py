"""``--where``, ``--source`` and the language warning for ``score``, ``compare`` and ``report``; the ``diagnose``
command.

A command reads its files as before and then calls :func:`narrow`: the language warning goes to stderr, and with
``--where`` every file (references, systems, source) keeps exactly the lines the expression chooses, so that
every number the command prints is computed on those lines only. Registering imports nothing heavy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from bleu_core.errors import InputError

if TYPE_CHECKING:
    from bleu_core.config import BleuConfig
    from bleu_core.data.corpus import TextFile
    from bleu_core.data.diagnostics import Diagnostics, SystemDiagnostics
    from bleu_core.data.slices import Slice

__all__ = ["SMALL_SLICE", "Narrowed", "add_diagnose_parser", "add_where_options", "narrow", "warn"]

SMALL_SLICE: Final = 100
"""A slice (or test set) of fewer lines is said to be too small for its intervals and paired tests."""


def warn(message: str) -> None:
    """One warning line on stderr."""
    print(f"bleu-explorer: warning: {message}", file=sys.stderr)


def add_where_options(p: argparse.ArgumentParser, *, source: bool = True) -> None:
    """``--where EXPR`` (and ``--source FILE`` unless the command has its own)."""
    p.add_argument(
        "--where",
        default=None,
        metavar="EXPR",
        help="score only the lines EXPR chooses: src_len/ref_len/hyp_len[NAME] comparisons, line A..B, "
        'src ~ "re", ref ~ "re", hyp[NAME] ~ "re", flag KIND[NAME] (empty, repetition, length, copy, '
        "untranslated), combined with and/or/not; every number is recomputed on those lines",
    )
    if source:
        p.add_argument("--source", default=None, metavar="FILE", help="source file (for src ~ and src_len)")


@dataclass(frozen=True)
class Narrowed:
    """The files a command scores, and the slice that chose their lines (None without ``--where``)."""

    references: list[TextFile]
    systems: list[TextFile]
    source: TextFile | None
    slice: Slice | None

    def label(self) -> str | None:
        return self.slice.label() if self.slice is not None else None


def _tokens(config: BleuConfig) -> Callable[[str], list[str]]:
    from bleu_core.engine.tokenizers import get_tokenizer

    tok = get_tokenizer(config.tokenize)
    return lambda line: tok(line.rstrip()).split()


def _names(systems: Sequence[TextFile]) -> dict[str, int]:
    """Each system by its base name and, where unique, by its name without the extension (Online-A.en, Online-A)."""
    from bleu_core.data.corpus import system_name

    names = {os.path.basename(f.name): k for k, f in enumerate(systems)}
    stems: dict[str, list[int]] = {}
    for k, f in enumerate(systems):
        stems.setdefault(system_name(f.name), []).append(k)
    for stem, ks in stems.items():
        if len(ks) == 1 and stem not in names:
            names[stem] = ks[0]
    return names


def _diagnostics(
    references: Sequence[TextFile], systems: Mapping[str, Sequence[str]], source: TextFile | None, config: BleuConfig
) -> Diagnostics:
    from bleu_core.data.diagnostics import diagnose

    return diagnose(
        systems,
        [list(f.lines) for f in references],
        list(source.lines) if source is not None else None,
        _tokens(config),
    )


def read_source(path: str | None, n_lines: int) -> TextFile | None:
    """The ``--source`` file, checked to have the references' number of lines."""
    if path is None:
        return None
    from bleu_core.data.readers import read_text_file

    source = read_text_file(path)
    if len(source.lines) != n_lines:
        raise InputError(f"has {len(source.lines)} lines, the references have {n_lines}", path)
    return source


def narrow(
    args: argparse.Namespace,
    config: BleuConfig,
    references: Sequence[TextFile],
    systems: Sequence[TextFile],
    source: TextFile | None = None,
) -> Narrowed:
    """Warn about the tokenizer for CJK/Thai references, then keep the lines ``args.where`` chooses.

    Raises:
        InputError: a bad expression (before anything is computed), or an expression that chooses no line.
    """
    from bleu_core.data.languages import tokenizer_warning

    if source is None:
        source = read_source(getattr(args, "source", None), len(references[0].lines))
    elif len(source.lines) != len(references[0].lines):
        raise InputError(f"has {len(source.lines)} lines, the references have {len(references[0].lines)}", source.name)
    message = tokenizer_warning((line for f in references for line in f.lines), config.tokenize)
    if message:
        warn(message)
    where = getattr(args, "where", None)
    if where is None:
        return Narrowed(list(references), list(systems), source, None)
    from bleu_core.data.corpus import TextFile
    from bleu_core.data.slices import SliceContext, parse_where, select

    parse_where(where)  # a bad expression is reported before any work
    by_name = _names(systems)
    texts = {name: systems[k].lines for name, k in by_name.items()}
    cache: dict[int, SystemDiagnostics] = {}

    def flags(name: str, kind: str) -> Sequence[int]:
        k = by_name[name]
        if k not in cache:
            cache[k] = _diagnostics(references, {name: systems[k].lines}, source, config).systems[name]
        return cache[k].lines(kind)

    context = SliceContext(
        [f.lines for f in references],
        texts,
        source.lines if source is not None else None,
        tokenize=_tokens(config),
        flags=flags,
    )
    chosen = select(where, context)
    if not chosen.lines:
        raise InputError(f"chooses none of the {chosen.total} lines: nothing to score", "--where")
    if len(chosen.lines) < SMALL_SLICE:
        warn(
            f"the slice has {len(chosen.lines)} of {chosen.total} lines: too few for reliable intervals and "
            f"paired tests (fewer than {SMALL_SLICE})"
        )

    def cut(f: TextFile) -> TextFile:
        return TextFile(f.name, tuple(f.lines[i] for i in chosen.lines))

    return Narrowed(
        [cut(f) for f in references],
        [cut(f) for f in systems],
        cut(source) if source is not None else None,
        chosen,
    )


def add_diagnose_parser(
    sub: Any,
    add_bleu_options: Callable[..., None],
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> None:
    """Register ``bleu-explorer diagnose``."""
    p = sub.add_parser(
        "diagnose", help="flag degenerate lines: empty, repetition, length outliers, copies of the source, untranslated"
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files")
    p.add_argument("--source", default=None, metavar="FILE", help="source file (for copy and untranslated)")
    p.add_argument("--json", action="store_true", help="print JSON: per system its flags, each [{line, reason}]")
    add_bleu_options(p)

    def run(args: argparse.Namespace) -> int:
        return _cmd_diagnose(args, make_config, read_all)

    p.set_defaults(func=run)


def _cmd_diagnose(
    args: argparse.Namespace,
    make_config: Callable[[argparse.Namespace], BleuConfig],
    read_all: Callable[[Sequence[str], Sequence[str]], Any],
) -> int:
    from bleu_core.data.diagnostics import FLAGS

    config = make_config(args)
    ref_files, hyp_files = read_all(args.refs, args.input)
    narrowed = narrow(args, config, ref_files, hyp_files)
    systems = {os.path.basename(f.name): f.lines for f in narrowed.systems}
    d = _diagnostics(narrowed.references, systems, narrowed.source, config)
    if args.json:
        out = {
            "tokenize": config.tokenize,
            "source": narrowed.source is not None,
            "source_script": d.source_script,
            "reference_script": d.reference_script,
            "systems": {
                name: {"lines": s.n_lines, "counts": s.counts(), "flags": s.to_dict()} for name, s in d.systems.items()
            },
        }
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if narrowed.source is None:
        print("no --source: copy and untranslated are not checked")
    for name, s in d.systems.items():
        counts = ", ".join(f"{kind} {n}" for kind, n in s.counts().items())
        print(f"{name}: {len(s.flagged())} of {s.n_lines} lines flagged ({s.rate:.1%}): {counts}")
        for kind in FLAGS:
            for line, reason in s.flags[kind]:
                print(f"  line {line:>5}  {kind:<12}  {reason}")
    return 0
