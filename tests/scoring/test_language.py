"""An answer in a language the engine does not read is unverifiable (reason "language"), never scored; English
answers full of foreign names and places, and short answers, stay English."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from knowledge.store import Store
from scoring.checker import Checker
from scoring.engines import build_checker
from scoring.language import ENGLISH, LANGUAGE_CODES, LanguageConfig, detect, language_label
from scoring.pipeline import check, default_config

# Made-up biographies, in English, whose names, places and titles are Polish, French, Danish, German, Chinese,
# Spanish, Russian, Italian, Icelandic and Nigerian.
ENGLISH_BIOS = [
    "Władysław Kowalczyk is a Polish cellist born in Wrocław in 1961. He studied at the Karol Lipiński Academy "
    "of Music in Wrocław and won the Grand Prix of the Budapest Cello Competition in 1986. Since 1995 he has "
    "taught at the Academy of Music in Łódź.",
    "Jean-Baptiste Lemoine was a French painter from Aix-en-Provence. He trained at the École des Beaux-Arts "
    "under Gustave Moreau, exhibited at the Salon des Indépendants in 1905, and later settled in "
    "Saint-Paul-de-Vence, where he died in 1958.",
    "Søren Ødegaard (1921–1994) was a Danish composer. Born in Århus, he studied in København with Vagn Holmboe "
    "and wrote the opera Den Kongelige Jagt, first staged at Det Kongelige Teater in 1967.",
    "Hans-Jürgen Müller is a German footballer who plays as a defender for Borussia Mönchengladbach. He came "
    "through the youth academy of Fortuna Düsseldorf and made his Bundesliga debut against Eintracht Frankfurt "
    "in 2015.",
    "Zhang Wei (张伟) is a Chinese table tennis player from Chengdu, Sichuan. She won the women's doubles at the "
    "Asian Championships in Doha and represents Shandong Luneng in the China Table Tennis Super League.",
    "José María Fernández García is a Spanish politician of the Partido Popular. He served as mayor of Alcalá "
    "de Henares from 2003 to 2011 and was later elected to the Congreso de los Diputados for the Comunidad de "
    "Madrid.",
    "Мстислав Ростропович (Mstislav Rostropovich) was a Soviet cellist and conductor, born in Baku. He studied "
    "at the Moscow Conservatory with Dmitri Shostakovich and Sergei Prokofiev.",
    "Giovanni Battista Pergolesi was an Italian composer, violinist and organist. His intermezzo La serva "
    "padrona and his Stabat Mater are among the most performed works of the early eighteenth century.",
    "Þórður Guðjónsson is an Icelandic former footballer from Akranes. He played for ÍA, KRC Genk, VfL Bochum "
    "and Stoke City, and earned 58 caps for Iceland.",
    "Ngozi Okonjo-Iweala is a Nigerian economist. She was twice Finance Minister of Nigeria and in 2021 became "
    "Director-General of the World Trade Organization in Genève.",
]
# English around quoted words and titles in other languages and scripts.
ENGLISH_QUOTING = [
    "Her motto, ni dieu ni maître, was painted above the door of her studio in Lyon, where she worked until her "
    "death in 1971.",
    'He wrote the novel Le Grand Meaulnes, and his last words were reportedly "je meurs content, la vie était '
    'belle", according to his daughter.',
    'The restaurant, whose name means "zum goldenen Hirschen" in the local dialect, was opened by his '
    "grandfather in 1921 and is still run by the family.",
    "Kim Ji-woo (김지우) is a South Korean actress born in Seoul. She starred in 사랑의 불시착 and won the Baeksang "
    "Arts Award in 2020.",
    "Yamada Taro (山田太郎) is a Japanese novelist from Osaka whose debut novel 夜の果て won the Akutagawa Prize "
    "in 1998.",
]
# Too short to tell a language by: read as English, as before.
SHORT = ["Yes.", "I don't know.", "Władysław Kowalczyk.", "Born in Wrocław.", "Jean-Baptiste Lemoine, peintre."]
FOREIGN_BIOS = [
    (
        "fr",
        "Jean-Baptiste Lemoine est un peintre français né à Aix-en-Provence en 1881. Il a étudié à l'École des "
        "Beaux-Arts de Paris auprès de Gustave Moreau et a exposé au Salon des Indépendants. Il est mort à "
        "Saint-Paul-de-Vence en 1958.",
    ),
    (
        "fr",
        "Marie Curie est une physicienne et chimiste d'origine polonaise, naturalisée française. Elle a reçu le "
        "prix Nobel de physique en 1903 avec son mari Pierre Curie, puis le prix Nobel de chimie en 1911.",
    ),
    (
        "de",
        "Hans-Jürgen Müller ist ein deutscher Fußballspieler, der als Verteidiger für Borussia Mönchengladbach "
        "spielt. Er wurde in der Jugendakademie von Fortuna Düsseldorf ausgebildet und gab 2015 sein Debüt in "
        "der Bundesliga.",
    ),
    (
        "de",
        "Clara Schumann war eine deutsche Pianistin und Komponistin. Sie wurde 1819 in Leipzig geboren und "
        "heiratete 1840 den Komponisten Robert Schumann. Sie starb 1896 in Frankfurt am Main.",
    ),
    (
        "es",
        "José María Fernández García es un político español del Partido Popular. Fue alcalde de Alcalá de "
        "Henares entre 2003 y 2011 y después diputado en el Congreso por la Comunidad de Madrid.",
    ),
    (
        "es",
        "Frida Kahlo fue una pintora mexicana nacida en Coyoacán en 1907. Es conocida por sus autorretratos y "
        "estuvo casada con el muralista Diego Rivera. Murió en 1954 en la Casa Azul.",
    ),
    (
        "zh",
        "张伟是一名中国乒乓球运动员，出生于四川成都。她曾在亚洲锦标赛上获得女子双打冠军，目前效力于中国乒乓球超级联赛的山东鲁能队。",
    ),
    (
        "zh",
        "鲁迅，原名周树人，是中国现代著名作家、思想家。他出生于浙江绍兴，代表作有《狂人日记》、《阿Q正传》等。他于1936年在上海去世。",
    ),
]


@pytest.mark.parametrize("text", ENGLISH_BIOS)
def test_english_bios_full_of_foreign_names_are_english(text: str) -> None:
    found = detect(text)
    assert found.code == "en" and found.readable
    assert found.share >= 0.9


@pytest.mark.parametrize("text", ENGLISH_QUOTING)
def test_english_quoting_other_languages_is_english(text: str) -> None:
    found = detect(text)
    assert found.code == "en" and found.readable


def test_no_english_answer_of_the_dev_sets_is_taken_for_another_language(shared_data: Path, repo_root: Path) -> None:
    sources = [
        (shared_data / "ambigbio" / "generations.dev.jsonl", "output"),
        (shared_data / "factscore" / "labeled.dev.jsonl", "output"),
        (shared_data / "factcheck-bench" / "claims.dev.jsonl", "response"),
        (repo_root / "tests" / "corpus" / "answers.jsonl", "answer"),
    ]
    answers = {row[key] for path, key in sources for row in map(json.loads, path.read_text().splitlines())}
    assert len(answers) > 1000
    found = Counter(language_label(detect(text).code) for text in answers)
    assert set(found) <= {"en", "und"}  # "und": too short to tell
    assert found["en"] > 0.97 * len(answers)


@pytest.mark.parametrize("text", SHORT)
def test_short_answers_are_read_as_the_engine_s_language(text: str) -> None:
    assert detect(text) == detect(text, LanguageConfig(reads=frozenset({"de"})))
    assert detect(text).code is None and detect(text).readable


@pytest.mark.parametrize(("code", "text"), FOREIGN_BIOS)
def test_bios_in_other_languages_are_not_read_by_an_english_engine(code: str, text: str) -> None:
    found = detect(text)
    assert found.code == code and not found.readable
    # an engine that reads the language, or every language, reads it
    assert detect(text, LanguageConfig(reads=ENGLISH | {code})).readable
    assert detect(text, LanguageConfig(reads=None)) == replace(found, readable=True)


def test_text_the_detector_cannot_take_is_read_as_english() -> None:
    # a lone surrogate is not UTF-8: CLD2 refuses it, and the answer goes on to the engine
    text = "Clara Schumann war eine deutsche Pianistin und Komponistin, sie wurde in Leipzig geboren \ud800."
    assert detect(text) == detect("") == detect("Yes.")


def test_language_labels_are_bounded() -> None:
    labels = {language_label(detect(t).code) for t in ENGLISH_BIOS + SHORT + [t for _, t in FOREIGN_BIOS]}
    assert labels == {"en", "und", "fr", "de", "es", "zh"}
    assert labels <= LANGUAGE_CODES
    assert language_label("qq") == "other" and language_label(None) == "und"
    assert len(LANGUAGE_CODES) < 200


@pytest.fixture(scope="module")
def kb() -> Store:
    return Store.in_memory(
        [
            ("Clara Schumann", "Clara Schumann (1819–1896) was a German pianist and composer, born in Leipzig.", []),
            ("Frida Kahlo", "Frida Kahlo (1907–1954) was a Mexican painter born in Coyoacán.", []),
        ]
    )


@pytest.mark.parametrize(("code", "text"), FOREIGN_BIOS)
def test_the_offline_engine_leaves_an_answer_in_another_language_unverifiable(kb: Store, code: str, text: str) -> None:
    result = check(text, kb=kb)
    assert (result.status, result.reason, result.language) == ("unverifiable", "language", code)
    assert result.factscore is None and result.dfactscore is None and result.coverage is None
    assert result.groups == [] and result.num_facts == 0 and result.revision is None
    assert result.sentences  # where the answer's sentences are, for a reader of the verdict


@pytest.mark.parametrize("text", ENGLISH_BIOS[:6])
def test_english_answers_are_checked_and_carry_their_language(kb: Store, text: str) -> None:
    result = check(text, kb=kb)
    assert result.reason is None and result.language == "en"
    assert result.num_facts > 0


def test_an_engine_that_reads_every_language_checks_the_answer(kb: Store) -> None:
    # The orchestration asks the config, not the engine's name: the offline steps with ``reads=None`` go on
    # to decompose the German answer (and find what they find in it).
    offline = build_checker("offline")
    config = replace(default_config(), language=LanguageConfig(reads=None))
    reading = Checker("offline", offline.decompose, offline.verify, offline.revise, config)
    text = FOREIGN_BIOS[3][1]
    result = reading.check(text, kb=kb)
    assert result.reason is None and result.language == "de"
    assert result.num_facts > 0


def test_the_llm_engine_reads_every_language_and_the_offline_engine_english() -> None:
    def complete(*args: object, **kwargs: object) -> object:
        raise AssertionError("not called")

    assert build_checker("llm", complete=complete).config.language.reads is None  # type: ignore[arg-type]
    assert build_checker("offline").config.language.reads == ENGLISH
    assert build_checker("hybrid", complete=complete).config.language.reads == ENGLISH  # type: ignore[arg-type]
