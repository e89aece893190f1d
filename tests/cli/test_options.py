"""The options every command shares are spelled and read once (bleu_cli.options): the same flags give the same
BleuConfig in every command, the paired tests' draws follow the core's one trial policy in compare and report,
and the CLI's constants are the core's."""

from __future__ import annotations

import pytest

from bleu_cli import options, slicing
from bleu_cli.cli import build_parser
from bleu_core.config import BleuConfig
from bleu_core.data import slices
from bleu_core.errors import InputError
from bleu_core.significance import resample
from bleu_core.significance.trials import default_trials

BLEU_FLAGS = ["--tokenize", "intl", "-lc", "--max-order", "3", "--smooth-method", "floor"]
COMMANDS = {
    "score": ["ref", "-i", "a"],
    "compare": ["ref", "-i", "a", "b"],
    "report": ["ref", "-i", "a", "b", "-o", "out.html"],
    "diagnose": ["ref", "-i", "a"],
}


def test_the_cli_constants_are_the_cores() -> None:
    assert options.DEFAULT_SEED == resample.DEFAULT_SEED
    assert slicing.SMALL_SLICE is slices.SMALL_SLICE


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_same_flags_give_the_same_config_in_every_command(command: str) -> None:
    args = build_parser().parse_args([command, *COMMANDS[command], *BLEU_FLAGS])
    want = BleuConfig(tokenize="intl", lowercase=True, max_ngram_order=3, smooth_method="floor")
    assert options.bleu_config(args) == want


@pytest.mark.parametrize("command", ["compare", "report"])
def test_compare_and_report_draw_what_the_trial_policy_says(command: str) -> None:
    head = [command, *COMMANDS[command][:2], *(f"s{k}" for k in range(16))]
    tail = COMMANDS[command][4:]
    parse = build_parser().parse_args
    assert options.paired_test(parse([*head, *tail]), 16) == ("bs", default_trials(16), "--paired-bs")
    assert default_trials(16) == 5000  # 120 pairs: sacreBLEU's 1,000 would make every Holm p at least 0.12
    assert options.paired_test(parse([*head, *tail, "--paired-bs"]), 16)[1] == 5000
    assert options.paired_test(parse([*head, *tail, "--paired-bs", "300"]), 16)[1] == 300
    assert options.paired_test(parse([*head, *tail, "--paired-ar"]), 16) == ("ar", 10000, "--paired-ar")
    with pytest.raises(InputError, match=r"^--paired-ar: must be a positive whole number, got 0$"):
        options.paired_test(parse([*head, *tail, "--paired-ar", "0"]), 16)
    # sacreBLEU's short spellings mean the same (argparse would otherwise read -pbs as a prefix of -pbsn)
    assert options.paired_test(parse([*head, *tail, "-pbs"]), 16) == ("bs", 5000, "--paired-bs")
    assert options.paired_test(parse([*head, *tail, "-par", "-parn", "2000"]), 16) == ("ar", 2000, "--paired-ar-n")
