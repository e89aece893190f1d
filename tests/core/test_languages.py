"""Languages: script shares, sacreBLEU's tokenizer for a target language, and the warning on a Chinese-target test
built from WMT22's source.zh (13a against zh, each equal to sacreBLEU's)."""

from __future__ import annotations

import random

import pytest
import sacrebleu

from bleu_core.data.languages import (
    cjk_language,
    parse_language_pair,
    script_shares,
    tokenizer_for,
    tokenizer_warning,
)
from bleu_core.data.readers import read_text_file
from bleu_core.errors import InputError
from bleu_core.metrics.bleu import corpus_bleu


def _chinese_target(real) -> tuple[list[str], list[str]]:
    """WMT22's Chinese source as the reference, and a perturbed copy (characters dropped and swapped) as output."""
    ref = list(read_text_file(real["wmt22-general-zh-en"].ref_paths[0].parent / "source.zh").lines)
    rng = random.Random(22)
    hyp = []
    for line in ref:
        chars = [c for c in line if rng.random() > 0.12]
        for _ in range(len(chars) // 10):
            k = rng.randrange(max(len(chars) - 1, 1))
            chars[k : k + 2] = chars[k : k + 2][::-1]
        hyp.append("".join(chars))
    return ref, hyp


def test_chinese_target_13a_and_zh_equal_sacrebleu_and_13a_is_warned(real) -> None:
    ref, hyp = _chinese_target(real)
    scores = {}
    for tok in ("13a", "zh"):
        ours = corpus_bleu(hyp, [ref], tokenize=tok)
        theirs = sacrebleu.corpus_bleu(hyp, [ref], tokenize=tok)
        assert ours.score == pytest.approx(theirs.score, abs=1e-9)
        scores[tok] = ours.score
    assert scores["zh"] > 2 * scores["13a"]  # a clause is one 13a token: the numbers are far apart
    warning = tokenizer_warning(ref, "13a")
    assert warning is not None
    assert warning.startswith("the references are mostly Chinese script (")
    assert "use --tokenize zh (-l xx-zh)" in warning
    assert "\n" not in warning
    assert tokenizer_warning(ref, "zh") is None
    assert tokenizer_warning(hyp, "char") is None
    assert tokenizer_for(parse_language_pair("en-zh")[1]) == "zh"


def test_english_references_get_no_warning(real) -> None:
    refs = real["wmt22-general-zh-en"].refs()
    for tok in ("13a", "intl", "none", "paper"):
        assert tokenizer_warning(refs[0], tok) is None
    assert script_shares(refs[0]).dominant == "latin"


@pytest.mark.parametrize(
    ("lines", "language", "right"),
    [
        (["今天天气很好。", "我们去公园。"], "zh", "zh"),
        (["猫はマットの上に座った。", "今日は雨です。"], "ja", "ja-mecab"),
        (["고양이가 매트 위에 앉았다.", "오늘은 비가 온다."], "ko", "ko-mecab"),
        (["แมวนั่งบนเสื่อ", "วันนี้ฝนตก"], "th", "char"),
        (["The cat sat.", "中文"], None, None),
    ],
)
def test_cjk_language_and_the_tokenizer_the_warning_names(lines: list[str], language: str | None, right: str) -> None:
    assert cjk_language(script_shares(lines)) == language
    warning = tokenizer_warning(lines, "13a")
    if language is None:
        assert warning is None
    else:
        assert warning is not None
        assert f"use --tokenize {right}" in warning


def test_tokenizer_for_is_sacrebleus_choice() -> None:
    from sacrebleu.metrics.bleu import BLEU

    for tgt in ("zh", "ja", "ko", "de", "en", "th", "fr", "ZH"):
        assert tokenizer_for(tgt) == BLEU._TOKENIZER_MAP.get(tgt.lower(), BLEU.TOKENIZER_DEFAULT)


@pytest.mark.parametrize("pair", ["enzh", "en-", "-zh", "en-zh-x", "e1-zh", "english-chinese"])
def test_bad_language_pairs(pair: str) -> None:
    with pytest.raises(InputError, match="expected SRC-TGT"):
        parse_language_pair(pair)


def test_ko_mecab_equals_sacrebleus() -> None:
    # issue 22: ko-mecab is sacreBLEU's Korean tokenizer (the test extra installs mecab-ko and its dictionary)
    pytest.importorskip("mecab_ko")
    import sacrebleu

    from bleu_core import corpus_bleu

    hyp = ["고양이가 매트 위에 앉았다.", "오늘은 비가 많이 온다.", "저는 학생입니다."]
    refs = [["고양이가 매트 위에 앉아 있었다.", "오늘 비가 온다.", "저는 대학생입니다."]]
    theirs = sacrebleu.corpus_bleu(hyp, refs, tokenize="ko-mecab")
    ours = corpus_bleu(hyp, refs, tokenize="ko-mecab")
    assert ours.score == theirs.score
    assert ours.counts == theirs.counts
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert theirs.counts[0] > 0  # the words were split by the tokenizer, not scored as whole lines
