"""``bleu-explorer`` / ``python -m bleu_cli``: score, explain, compare, variants, report, diagnose, handout, app
(DESIGN.md section 3).

One module per command (``score``, ``explain``, ``compare``, ``variants``, ``report``, ``diagnose``), their shared
options in ``options``, their files in ``files``, ``--where`` in ``slicing``. Input errors print one line on stderr
naming the file and line and exit with status 2; never a traceback. Nothing heavy is imported at start-up (no
Streamlit, no pandas, no numpy), so ``score`` starts fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from bleu_core import __version__
from bleu_core.errors import InputError

from . import compare, diagnose, explain, files, report, score, variants

__all__ = ["build_parser", "main"]

EXIT_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + error
        raise InputError(message, self.prog)


def _cmd_handout(args: argparse.Namespace) -> int:
    from bleu_app.handout import handout_html

    page = handout_html()
    if args.output in (None, "-"):
        sys.stdout.write(page + "\n")
        return 0
    files.write_text(args.output, page)
    print(f"wrote {args.output} (the paper's Examples 1-4 and the toy corpus, under the paper's preset)")
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    import subprocess

    import bleu_app

    # app.py and pages/ sit beside the bleu_app package in the checkout (the design card's layout)
    app = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(bleu_app.__file__))), "app.py")
    if not os.path.exists(app):
        raise InputError("app.py not found beside the bleu_app package; run from a source checkout", app)
    cmd = [sys.executable, "-m", "streamlit", "run", app, "--server.address", args.address]
    cmd += ["--server.port", str(args.port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    return subprocess.call(cmd)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used by the docs)."""
    parser = _Parser(prog="bleu-explorer", description="Exact, explainable BLEU (sacrebleu-compatible).")
    parser.add_argument("--version", action="version", version=f"bleu-explorer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in (score, explain, compare, variants, report, diagnose):
        command.add_parser(sub)

    p = sub.add_parser("handout", help="the paper's worked numbers (Examples 1-4) as a printable HTML page")
    p.add_argument("-o", "--output", metavar="FILE", help="the HTML file to write (default: standard output)")
    p.set_defaults(func=_cmd_handout)

    p = sub.add_parser("app", help="start the Streamlit app on 127.0.0.1")
    p.add_argument("--port", type=int, default=8501)
    p.add_argument("--address", default="127.0.0.1")
    p.set_defaults(func=_cmd_app)
    return parser


def _tolerant_output() -> None:
    """Print what the encoding cannot hold as escapes instead of failing: a file name that is not
    UTF-8 (kept by Python as lone surrogates) on a strict UTF-8 stdout, or any text on an ASCII one."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    _tolerant_output()
    try:
        args, extra = build_parser().parse_known_args(argv)
        if extra:  # said by the command that did not know them
            raise InputError(f"unrecognized arguments: {' '.join(extra)}", f"bleu-explorer {args.command}")
        return int(args.func(args))
    except InputError as exc:
        print(f"bleu-explorer: error: {exc}", file=sys.stderr)  # one line (InputError escapes line breaks)
        return EXIT_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
