"""Our own words: no course file shares a run of 8 words with the seed documents.

The seeds stay outside the project; tests/seed_fingerprints.json holds only hashes of their
8-word shingles (tests/own_words.py says how to refresh it).
"""

import json

from tests import own_words


def test_no_course_file_shares_a_run_of_eight_words_with_the_seeds():
    grams = own_words.load_fingerprints()
    files = own_words.course_files()
    assert any(p.name == "modern-blocks.md" for p in files)
    runs = own_words.shared_runs(files, grams)
    assert not runs, "Rewrite in our own words:\n" + "\n".join(map(str, runs))


def test_the_fingerprints_hold_hashes_of_every_seed_and_no_words():
    data = json.loads(own_words.FINGERPRINTS.read_text(encoding="utf-8"))
    assert len(data["seeds"]) >= 1
    for hashes in data["seeds"].values():
        assert len(hashes) > 1000
        assert all(len(h) == own_words.HASH_CHARS and int(h, 16) >= 0 for h in hashes)


SEED = (
    "The rotary scheme turns every query and key pair through an angle that grows with the "
    "position, so the score between them depends on their distance alone."
)


def fingerprints_of(tmp_path, text):
    seeds = {"seed.txt": sorted(set(own_words.shingles(text)))}
    path = tmp_path / "fingerprints.json"
    data = {"words": own_words.WORDS, "hash_chars": own_words.HASH_CHARS, "seeds": seeds}
    path.write_text(json.dumps(data), encoding="utf-8")
    return own_words.load_fingerprints(path)


def test_a_copied_sentence_is_found_whole_even_behind_tex_and_other_case(tmp_path):
    grams = fingerprints_of(tmp_path, SEED)
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\nIntro.\nThe Rotary scheme \\textbf turns every query and KEY pair through an\n"
        "angle that grows with the position, and then something else.\n",
        encoding="utf-8",
    )
    [run] = own_words.scan(page, grams)
    assert (run.line, run.seed) == (4, "seed.txt")
    assert run.text == (
        "the rotary scheme turns every query and key pair through an angle that grows with the "
        "position"
    )


def test_seven_shared_words_and_short_worded_runs_pass(tmp_path):
    grams = fingerprints_of(tmp_path, SEED + " It is a b c d e f g h in x.")
    page = tmp_path / "page.md"
    # Seven words of the seed, then our own; and a run of short words (a formula).
    page.write_text(
        "The rotary scheme turns every query and flips.\nit is a b c d e f g h\n", encoding="utf-8"
    )
    assert own_words.scan(page, grams) == []


def test_no_page_has_a_sentence_that_rewords_a_seed_sentence():
    seed_sentences = own_words.load_sentences()
    pages = sorted((own_words.ROOT / "docs").rglob("*.md"))
    assert any(p.name == "worked-examples.md" for p in pages)
    found = [a for page in pages for a in own_words.alike(page, seed_sentences)]
    assert not found, "Write from the idea, not from the sentence:\n" + "\n".join(map(str, found))


def sentences_of(tmp_path, text):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    path = tmp_path / "fingerprints.json"
    data = {"sentences": {"seed.txt": own_words.seed_sentences(text)}}
    path.write_text(json.dumps(data), encoding="utf-8")
    return own_words.load_sentences(path)


def test_a_sentence_with_its_words_swapped_is_found_and_our_own_is_not(tmp_path):
    seed_sentences = sentences_of(tmp_path, SEED)
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n"
        "Every query and key pair of the rotary scheme turns through an angle growing with "
        "position, so their score depends on distance alone.\n\n"
        "A rotation keeps lengths, so only the gap between two positions can reach the dot "
        "product of a query with a key.\n",
        encoding="utf-8",
    )
    [found] = own_words.alike(page, seed_sentences)
    assert "Every query and key pair" in found.text and found.score >= 0.5


def test_code_maths_tables_and_references_are_not_prose(tmp_path):
    seed_sentences = sentences_of(tmp_path, SEED)
    page = tmp_path / "page.md"
    copy = SEED.replace("distance alone.", "distance alone")
    page.write_text(
        f"```python\n# {copy}\n```\n\n$$\\text{{{copy}}}$$\n\n| {copy} |\n\n"
        f"## References\n\n- {copy}\n",
        encoding="utf-8",
    )
    assert own_words.alike(page, seed_sentences) == []
