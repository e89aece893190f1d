"""Answers to what students ask where they ask it (issue 34): why a sentence's BLEU is 0, why Chinese typed without
spaces is one token, and which BLEU a class room scores with. Plain functions of an explanation or a config
(Markdown lines, no user text in them)."""

from __future__ import annotations

from typing import Final

from bleu_core.config import BleuConfig
from bleu_core.data.languages import SPACE_TOKENIZERS, suggestion
from bleu_core.teaching.explain import SegmentExplanation

ZERO_STEP: Final = "/?step=zero"  # the Learn step on zero precisions and smoothing, by its key
LECTURE: Final = "the paper's word tokens, lower case, no smoothing"


def why_zero(expl: SegmentExplanation, *, sidebar: bool = False) -> str | None:
    """Why this sentence's BLEU is 0 (the first order with n-grams but no match), or what smoothing did with such
    an order; None when no order with n-grams has a zero precision. ``sidebar``: the page's sidebar can smooth.

    Example:
        >>> from bleu_core.teaching.explain import explain_segment
        >>> expl = explain_segment("the army always obeys the party", ["the party always obeys"], BleuConfig.paper())
        >>> why_zero(expl).split(":")[0]
        '**Why 0?** No 3-gram of the candidate matches a reference (p3 = 0/4)'
        >>> why_zero(explain_segment("a b c d", ["a b c d"], BleuConfig.paper())) is None
        True
    """
    zero = next((o for o in expl.orders if o.total > 0 and o.matches == 0), None)
    if zero is None:
        return None
    missing = f"No {zero.n}-gram of the candidate matches a reference (p{zero.n} = 0/{zero.total})"
    step = f"[the Learn step on zero precisions]({ZERO_STEP})"
    if expl.score.score == 0:
        fix = "the sidebar's *Smoothing* (exp, floor, add-k)" if sidebar else "smoothing (exp, floor, add-k)"
        return (
            f"**Why 0?** {missing}: BLEU is a geometric mean of the precisions, so one precision of 0 makes it 0, "
            f"however good the rest. See {step}; {fix} counts such a precision as a small number instead."
        )
    return (
        f"{missing}. With {expl.config.smooth_method} smoothing it counts as a small number, so BLEU is not 0; "
        f"unsmoothed, as in the paper and the lecture, it would be 0 ({step})."
    )


def tokenizer_hint(expl: SegmentExplanation, *, sidebar: bool = False) -> str | None:
    """When the references are mostly Chinese, Japanese, Korean or Thai script and the tokenizer splits only on
    spaces and punctuation: one line saying so and naming sacreBLEU's tokenizer for them; else None.

    Example:
        >>> from bleu_core.teaching.explain import explain_segment
        >>> expl = explain_segment("我们今天去公园玩", ["我们今天去了公园玩"], BleuConfig.sentence())
        >>> tokenizer_hint(expl)[:62]
        'The references are mostly **Chinese** script (100% of letters)'
        >>> tokenizer_hint(explain_segment("我们今天去公园玩", ["我们今天去了公园玩"], BleuConfig(tokenize="zh")))
    """
    return references_hint([" ".join(tokens) for tokens in expl.ref_tokens], expl.config.tokenize, sidebar=sidebar)


def references_hint(refs: list[str], tokenize: str, *, sidebar: bool = False) -> str | None:
    """:func:`tokenizer_hint` for references and a tokenizer (a class room's, before anyone has sent a sentence).

    Example:
        >>> references_hint(["我们今天去了公园玩"], "13a", sidebar=True).split(": ")[-1]
        "pick **zh** as the sidebar's *Tokenizer* to score it by words (or characters)."
    """
    if tokenize not in SPACE_TOKENIZERS:
        return None
    found = suggestion(refs)
    if found is None:
        return None
    language, right, share = found
    fix = (
        f"pick **{right}** as the sidebar's *Tokenizer* to score it by words (or characters)"
        if sidebar
        else f"a room made with the {right} tokenizer scores it by words (or characters)"
    )
    return (
        f"The references are mostly **{language}** script ({share:.0%} of letters), but the {tokenize} "
        f"tokenizer splits only on spaces and punctuation: a clause written without spaces is one token, and one "
        f"different character makes the whole token a miss. sacreBLEU uses {right} for this language: {fix}."
    )


def settings_words(config: BleuConfig) -> str:
    """A config in a few words.

    Example:
        >>> settings_words(BleuConfig.sentence())
        '13a tokens, case kept, exp smoothing, effective order'
    """
    words = [
        "the paper's word tokens" if config.tokenize == "paper" else f"{config.tokenize} tokens",
        "lower case" if config.lowercase else "case kept",
        "no smoothing" if config.smooth_method == "none" else f"{config.smooth_method} smoothing",
    ]
    if config.use_effective_order:
        words.append("effective order")
    if config.max_ngram_order != 4:
        words.append(f"N = {config.max_ngram_order}")
    return ", ".join(words)


def scoring_line(config: BleuConfig) -> str:
    """Which BLEU a class room scores with, in one line, and how it differs from the lecture's.

    Example:
        >>> scoring_line(BleuConfig.paper())
        "Scored with the lecture's BLEU (the paper's word tokens, lower case, no smoothing)."
        >>> scoring_line(BleuConfig.sentence())[:68]
        "Scored with sacreBLEU's sentence BLEU (13a tokens, case kept, exp sm"
    """
    if config == BleuConfig.paper():
        return f"Scored with the lecture's BLEU ({LECTURE})."
    what = "sacreBLEU's sentence BLEU" if config == BleuConfig.sentence() else "this room's BLEU"
    smoothed = ", and a sentence the lecture scores 0 may score above 0 here" if config.smooth_method != "none" else ""
    return (
        f"Scored with {what} ({settings_words(config)}), not the lecture's ({LECTURE}): the same sentence can "
        f"score differently there{smoothed}."
    )
