"""``--tokenize spm --spm-model FILE``: a tiny SentencePiece model trained here on WMT22's reference A; the CLI's
BLEU equals sacreBLEU's on the text sentencepiece itself encodes with that model (``--tokenize none``), and the
signature names the model by its digest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import sacrebleu

from bleu_cli.cli import main
from bleu_core.data.readers import read_text_file
from bleu_core.engine.tokenizers import get_tokenizer, register_spm

spm = pytest.importorskip("sentencepiece")


@pytest.fixture(scope="module")
def model(tmp_path_factory, data_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("spm")
    text = data_dir / "wmt22-general-zh-en" / "reference.A.en"
    spm.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(out / "tiny"), vocab_size=500, model_type="unigram", minloglevel=2
    )
    return out / "tiny.model"


def test_spm_tokens_are_sentencepieces(model: Path, data_dir: Path) -> None:
    sp = spm.SentencePieceProcessor(model_file=str(model))
    name = register_spm(str(model))
    assert name == "spm-" + hashlib.sha256(model.read_bytes()).hexdigest()[:12]
    lines = list(read_text_file(data_dir / "wmt22-general-zh-en" / "systems" / "Online-A.en").lines)[:200]
    tok = get_tokenizer(name)
    assert [tok(x) for x in lines] == [" ".join(sp.encode(x, out_type=str)) for x in lines]


def test_cli_score_equals_sacrebleu_on_the_encoded_text(model: Path, data_dir: Path, capsys) -> None:
    d = data_dir / "wmt22-general-zh-en"
    refs = [d / "reference.A.en", d / "reference.B.en"]
    hyp = d / "systems" / "NiuTrans.en"
    sp = spm.SentencePieceProcessor(model_file=str(model))

    def enc(p: Path) -> list[str]:
        return [" ".join(sp.encode(x.rstrip(), out_type=str)) for x in read_text_file(p).lines]

    want = sacrebleu.corpus_bleu(enc(hyp), [enc(r) for r in refs], tokenize="none")
    argv = ["score", *map(str, refs), "-i", str(hyp), "--tokenize", "spm", "--spm-model", str(model), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] == pytest.approx(want.score, abs=1e-9)
    digest = hashlib.sha256(model.read_bytes()).hexdigest()[:12]
    assert f"tok:spm-{digest}" in out["signature"]
    plain = sacrebleu.corpus_bleu(list(read_text_file(hyp).lines), [list(read_text_file(r).lines) for r in refs])
    assert abs(out["score"] - plain.score) > 1  # the pieces, not 13a's words, were counted


def test_not_a_model_is_one_line(tmp_path: Path, data_dir: Path, capsys) -> None:
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    d = data_dir / "wmt22-general-zh-en"
    argv = ["score", str(d / "reference.A.en"), "-i", str(d / "systems" / "NiuTrans.en"), "--tokenize", "spm"]
    assert main([*argv, "--spm-model", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{bad}: not a SentencePiece model" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tokenize", "spm"], "--tokenize: spm needs a model file: add --spm-model FILE"),
        (["--spm-model", "x.model"], "--spm-model: given without --tokenize spm"),
        (["--tokenize", "spm", "--spm-model", "/nonexistent.model"], "/nonexistent.model: cannot read"),
    ],
)
def test_bad_spm_options_are_one_line(argv, message, data_dir: Path, capsys) -> None:
    d = data_dir / "wmt22-general-zh-en"
    assert main(["score", str(d / "reference.A.en"), "-i", str(d / "systems" / "NiuTrans.en"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message in err
