"""The COCO caption suite against the real pycocoevalcap 1.2 (and its Stanford PTBTokenizer jar) on
Flickr30k (MAGIC release: 1000 images × 5 references, 6 systems).

The jar runs once per module (per xdist worker): the references, each system's captions and a set of
tricky lines, each as pycocoevalcap's COCOEvalCap would tokenize them.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from conftest import java_missing_reason

import nlgmetrics
from nlgmetrics.compat.pycocoevalcap import Cider as OurCider
from nlgmetrics.compat.pycocoevalcap import PTBTokenizer as OurPTBTokenizer
from nlgmetrics.compat.pycocoevalcap import Rouge as OurRouge

pycocoevalcap = pytest.importorskip("pycocoevalcap")
from pycocoevalcap.cider.cider import Cider  # noqa: E402
from pycocoevalcap.rouge.rouge import Rouge  # noqa: E402
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer  # noqa: E402

if java_missing_reason():  # pragma: no cover
    pytest.skip(f"pycocoevalcap's PTBTokenizer needs Java: {java_missing_reason()}", allow_module_level=True)

SYSTEMS = ["contrastive", "flickr30k_in_domain_clipretrieval", "magic", "nucleus_run_1", "top_k_run_1", "zerocap"]

# Lines that exercise the lexer's rules (clitics, assimilations, abbreviations, acronyms before a
# sentence start, quotes, brackets, hyphens, dots, entities, SGML, URLs, emails, numbers, smileys,
# currency, Unicode punctuation and letters, untokenizable characters).
TRICKY = [
    "it's can't won't don't I'm you're they've we'll he'd she'S HE'LL CAN'T",
    "cannot gonna gotta wanna lemme gimme 'tis 'twas dunno",
    '"P.I.N.K." on the back; U.S. army and U.S. He left',
    "Mr. Smith met Dr. Who at St. Paul etc. and so on. Calif. Inc. Co. Jan. Feb 5 No. 5 fig. 3",
    "plan b. The end plan b. the end I. He A.B. He a.m. p.m. 5 p.m. The",
    "the dog... runs. . . . fast .... a .... b ..... c ...... d ....... e",
    "a--b a---b a - b a -- b a----b a-----b tree- -tree x--y -x- --",
    '(hello) [hi] {there} <b> a<b c>d <a href="x y">z</a> <!-- hi --> < b>',
    "AT&T at&amp;t Q&A R&D & x Texas A&amp;M I&lt;3NY &gt; &#39; &nbsp;x",
    "$5 US$ 5 #1 #hashtag 5% 50+ a+b a_b __ 1/2 3-4 1-2-2010 12:55 :30 1 1/2 3 1/2-inch",
    "'quoted' \"double\" ''two'' ``tick'' `single` 'a b' 'I saw' 'sit 'sé 'St. x\" 6\"ß",
    "rock'n'roll o'clock O'Malley d'Avignon y'all ol' '90s 'em 'cause 'till Shi'ite ma'am",
    "e-mail x-ray co-op re-enter mid-1990s 1990s-era t-shirts hello,big-dog 3,000-foot 9-113.5",
    "www.google.com http://x.com/a foo@bar.com file.jpg %www.x.com http://a.b/c;-)",
    "Wow! Yes?! ok... Hmm;: what a|b ~ ^ * ** *** = == / \\ @ @@",
    "café naïve 🙂 — – ’s “quoted” … ½ ° © € £ ¢ ¥ ﬁ x² ’dog ’non-stop ’“",
    "smiley :) :-( ;) :D :P =) (: x;-) :)ß <_-- ^_^ (^-^)",
    "end.Next wow!great a.b-c hello.world x.y. word., ést.non-stop a.é-b üIcan't",
    "park decorating dog climbing tree-<|endoftext|>A man <-start_of_text->  watching",
    "Ein Mann fährt Fahrrad über die Straße. Un homme à vélo l'été dernier, c'est ça!",
    "一个男人在骑自行车。 两只狗在雪地里玩耍！ 男の子が公園で遊んでいる。 Мужчина едет.",
    "a 😀 emoji 👍🏽 and ♥ heart ★ star → arrow ✓ check ¿verdad? ¡Sí! १२३ ٣٤٥ 12½ ５６ ＡＢＣ",
    "tab\tsep and \u200bzero width and soft\u00adhyphen \u00ad Ωmega ΣΑΣ ﬂower ǅ İstanbul",
    "x-yॣ b‑b ‑1 #manI1 #a_b ＃tag \x80 \x82 \x91x\x92 \x96 ´s 〈a〉 「b」",
    'see photo.jpg. a file.txt, x3.5www.x. c.c b.h foo-bar/baz.pdf" Calif.x Inc.com etc.x (http://a.b/c}',
    "the U.N. and the E.U., N.Y.C. 3www.x.com <3www.x.com Ltd. Ltd.x +1/2gonna",
    "",
    "   ",
    "A",
    "the end of a caption with b.",
    "He said it",
]


def _load(shared_data):
    base = shared_data / "captioning" / "magic_flickr30k_test"
    with open(base / "annotations.coco_format.json", encoding="utf-8") as handle:
        annotations = json.load(handle)
    with open(base / "expected_pycocoevalcap_1.2.json", encoding="utf-8") as handle:
        expected = json.load(handle)["scores"]
    by_image = {}
    for ann in annotations["annotations"]:
        by_image.setdefault(ann["image_id"], []).append(ann)
    image_order = [image["id"] for image in annotations["images"]]
    systems = {}
    for system in SYSTEMS:
        with open(base / "results" / f"{system}.json", encoding="utf-8") as handle:
            results = json.load(handle)
        res_by_image = {}
        for item in results:
            res_by_image.setdefault(item["image_id"], []).append(item)
        # COCOEvalCap: image ids of the results, in the annotation file's image order.
        ids = [i for i in image_order if i in res_by_image]
        systems[system] = ({i: by_image[i] for i in ids}, {i: res_by_image[i] for i in ids})
    return systems, expected


@pytest.fixture(scope="module")
def coco(shared_data):
    systems, expected = _load(shared_data)
    jar = {}
    gts_cache = {}
    for system, (gts, res) in systems.items():
        key = tuple(gts)
        if key not in gts_cache:
            gts_cache[key] = PTBTokenizer().tokenize(gts)
        jar[system] = (gts_cache[key], PTBTokenizer().tokenize(res))
    tricky = PTBTokenizer().tokenize({i: [{"caption": line}] for i, line in enumerate(TRICKY)})
    return systems, expected, jar, tricky


def test_ptb_tokens_identical_to_the_jar_on_every_caption(coco):
    systems, _, jar, _ = coco
    compared = 0
    for system, (gts, res) in systems.items():
        ours_gts = OurPTBTokenizer().tokenize(gts)
        ours_res = OurPTBTokenizer().tokenize(res)
        jar_gts, jar_res = jar[system]
        assert ours_res == jar_res, system
        assert ours_gts == jar_gts, system
        compared += sum(len(v) for v in jar_res.values()) + sum(len(v) for v in jar_gts.values())
    assert compared == 6 * (1000 + 5000)


def test_ptb_tokens_identical_to_the_jar_on_tricky_lines(coco):
    *_, tricky = coco
    ours = OurPTBTokenizer().tokenize({i: [{"caption": line}] for i, line in enumerate(TRICKY)})
    for i, line in enumerate(TRICKY):
        assert ours[i] == tricky[i], line


def test_ptb_tokens_identical_to_the_jar_on_random_caption_like_text():
    # Word/punctuation soup built from caption-like pieces (seeded), one jar run.
    pieces = ["a", "A", "the", "dog", "man's", "can't", "it's", "I", "U.S.", "p.m.", "Mr.", "b.", "He", "t-shirt",
              "3", "3.5", "1,000", "-", "--", ".", "...", ",", ";", ":", "!", "?", "'", '"', "`", "(", ")", "[",
              "&", "&amp;", "$", "#", "%", "+", "=", "/", "*", "_", "n't", "'s", "o'clock", "cannot", "gonna",
              "café", "—", "’", "“", "…", "½", "1/2", "e-mail", "co.", "etc.", "AT&T", ":)", "'90s", "y'all",
              "5'2", "2nd", "mid-1990s", "Jan.", "No.", "fig.", "e.g.", "wasn't", "I'm", "we've"]
    rng = random.Random(20261122)
    lines = ["".join(rng.choice(pieces) + rng.choice([" ", " ", " ", "", "  "]) for _ in range(rng.randint(0, 12))).strip()
             for _ in range(1500)]
    captions = {i: [{"caption": line}] for i, line in enumerate(lines)}
    assert OurPTBTokenizer().tokenize(captions) == PTBTokenizer().tokenize(captions)


@pytest.mark.parametrize("system", SYSTEMS)
def test_cider_and_rouge_identical_per_image(coco, system):
    _, expected, jar, _ = coco
    gts, res = jar[system]
    cider, cider_images = Cider().compute_score(gts, res)
    ours, ours_images = OurCider().compute_score(gts, res)
    assert np.array_equal(ours_images, cider_images)
    assert ours == cider
    assert abs(ours - expected[system]["CIDEr"]) <= 1e-9
    rouge, rouge_images = Rouge().compute_score(gts, res)
    ours, ours_images = OurRouge().compute_score(gts, res)
    assert np.array_equal(ours_images, rouge_images)
    assert ours == rouge
    assert abs(ours - expected[system]["ROUGE_L"]) <= 1e-9


@pytest.mark.parametrize("system", SYSTEMS)
def test_caption_scores_end_to_end_without_java(coco, system):
    systems, expected, _, _ = coco
    gts, res = systems[system]
    result = nlgmetrics.caption_scores(gts, res)
    for metric, value in result.scores.items():
        assert abs(value - expected[system][metric]) <= 1e-9, metric
    assert {"ROUGE_L", "CIDEr"} <= set(result.scores)
    for metric in ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR"):
        if metric not in result.scores:
            assert any(metric.split("_")[0] in note for note in result.notes)
    cider = nlgmetrics.cider([res[i][0]["caption"] for i in res], [[a["caption"] for a in gts[i]] for i in gts])
    assert abs(cider.score - expected[system]["CIDEr"]) <= 1e-9
