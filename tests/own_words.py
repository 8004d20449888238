"""The seed-overlap rule inside the project: no run of 8 words shared with the seed documents,
and no prose sentence that is a seed sentence re-worded.

The course carries facts over from the seed documents, never sentences. The rule is the one of
../shared/tools/seed_overlap.py: TeX commands are dropped, words are compared in lower case,
and a shared run of 8 or more words counts when at least 6 of its words have 4+ letters (a
shorter-worded run is a formula or a signature; in prose files, when at least half its words
have 3+ letters). A sentence of the pages' prose (code, maths, tables and the references left
out) is a seed sentence re-worded when their content words overlap by half or more (Jaccard).
The seeds themselves live outside the project, so the test suite reads only
seed_fingerprints.json: a truncated sha256 of every 8-word shingle of each seed, and of each
content word of each seed sentence, never the text.

A developer refreshes the fingerprints when the seeds change, from the repository root:

    .venv/bin/python -m tests.own_words ../shared/seeds

which also checks that this copy of the rule finds exactly what the shared tool finds.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINTS = Path(__file__).with_name("seed_fingerprints.json")
WORDS = 8
PROSE_WORDS = 6
HASH_CHARS = 16  # 64 bits: a chance collision among ~5,000 seed shingles is negligible
TEXT_SUFFIXES = {".md", ".html", ".py", ".js", ".mjs", ".ts", ".json", ".yml", ".yaml", ".txt"}
TEXT_SUFFIXES |= {".css"}
PROSE_SUFFIXES = {".md", ".html", ".txt"}
SIMILAR = 0.5  # Jaccard overlap of content words at which a sentence is a seed's re-worded
SENTENCE_WORDS = 6  # sentences with fewer content words are not compared
STOP_WORDS = """the a an of to and in is it its that this on for as with by be are at or from
into not one two each your you we our their they than then so but what which how when if can does
do has have was were will would there these those only just also more most very all any every
no same"""
STOP = set(STOP_WORDS.split())  # the shared tool's stop words
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`\n]*`", re.S)
REFERENCES = re.compile(
    r"^(#+)\s*(references|sources|further reading)\b.*?(?=^\1\s|\Z)", re.S | re.M | re.I
)
# The shared tool scans docs, labs and py; examples/ and the README are course text too.
SCANNED = ("docs", "labs", "py", "examples", "README.md")
WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
TEX_COMMAND = re.compile(r"\\(?:begin|end)\{[^}]*\}|\\[A-Za-z]+")  # \pi, \begin{bmatrix}: markup


@dataclass(frozen=True)
class Run:
    """A run of words a file shares with a seed."""

    path: Path
    line: int
    seed: str
    text: str

    def __str__(self) -> str:
        return f'{self.path}:{self.line}: shares with {self.seed}: "{self.text}"'


def words_with_lines(text: str) -> list[tuple[str, int]]:
    """Every word of text in lower case, with its line number; TeX commands are not words."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = TEX_COMMAND.sub(" ", line)
        out.extend((w.lower().replace("’", "'"), lineno) for w in WORD.findall(line))
    return out


def fingerprint(words: Iterable[str]) -> str:
    """The stored form of one shingle: a truncated sha256 of its words joined by spaces."""
    return hashlib.sha256(" ".join(words).encode("utf-8")).hexdigest()[:HASH_CHARS]


def shingles(text: str, n: int = WORDS) -> Iterator[str]:
    """The fingerprint of every run of n consecutive words of a text."""
    words = [w for w, _ in words_with_lines(text)]
    for i in range(len(words) - n + 1):
        yield fingerprint(words[i : i + n])


def load_fingerprints(path: Path = FINGERPRINTS) -> dict[str, str]:
    """Shingle fingerprint -> the seed it first occurs in, as the shared tool attributes it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["words"] == WORDS and data["hash_chars"] == HASH_CHARS, f"{path} is stale"
    grams: dict[str, str] = {}
    for seed, hashes in sorted(data["seeds"].items()):
        for h in hashes:
            grams.setdefault(h, seed)
    return grams


def scan(path: Path, grams: dict[str, str], n: int = WORDS) -> list[Run]:
    """The shared runs of one file, each extended as far as it goes (the shared tool's loop)."""
    prose = path.suffix.lower() in PROSE_SUFFIXES
    words = words_with_lines(path.read_text(encoding="utf-8", errors="replace"))
    keys = [fingerprint(w for w, _ in words[i : i + n]) for i in range(len(words) - n + 1)]
    hits, i = [], 0
    while i < len(keys):
        if keys[i] in grams:
            j = i + n
            while j < len(words) and keys[j - n + 1] in grams:
                j += 1
            run = [w for w, _ in words[i:j]]
            if prose:  # not a formula (x i j k)
                counts = 2 * sum(len(w) >= 3 for w in run) >= len(run)
            else:  # code: not a signature or a one-liner
                counts = sum(len(w) >= 4 for w in run) >= PROSE_WORDS
            if counts:
                hits.append(Run(path, words[i][1], grams[keys[i]], " ".join(run)))
            i = j
        else:
            i += 1
    return hits


@dataclass(frozen=True)
class Alike:
    """A prose sentence whose content words overlap a seed sentence's by SIMILAR or more."""

    path: Path
    score: float
    seed: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}: {self.score:.2f} like a sentence of {self.seed}:\n    {self.text}"


def sentences(text: str) -> list[str]:
    """Prose sentences: code, maths, tables and a References section (titles) left out."""
    text = MATH.sub(" ", FENCE.sub(" ", REFERENCES.sub(" ", text)))
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
    text = re.sub(r"\s+", " ", text)
    return [s.strip() for s in re.split(r"(?<=[.!?:;])\s+", text) if s.strip()]


def content(sentence: str) -> set[str]:
    """The fingerprints of a sentence's content words (3+ letters, not a stop word)."""
    words = re.findall(r"[a-z]+", sentence.lower())
    return {fingerprint([w]) for w in words if len(w) > 2 and w not in STOP}


def load_sentences(path: Path = FINGERPRINTS) -> list[tuple[str, frozenset[str]]]:
    """(seed, content-word fingerprints) of every seed sentence that is compared."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        (seed, frozenset(words)) for seed, sents in data["sentences"].items() for words in sents
    ]


def alike(path: Path, seed_sentences: list[tuple[str, frozenset[str]]]) -> list[Alike]:
    """The prose sentences of a Markdown file that re-word a seed sentence."""
    found = []
    for sentence in sentences(path.read_text(encoding="utf-8", errors="replace")):
        ours = content(sentence)
        if len(ours) < SENTENCE_WORDS:
            continue
        score, seed = max(
            (len(ours & theirs) / len(ours | theirs), seed) for seed, theirs in seed_sentences
        )
        if score >= SIMILAR:
            found.append(Alike(path, score, seed, sentence))
    return found


def course_files(root: Path = ROOT) -> list[Path]:
    """The project's text files the rule applies to."""
    files: list[Path] = []
    for name in SCANNED:
        top = root / name
        found = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        files += [p for p in found if p.suffix.lower() in TEXT_SUFFIXES]
    return [p for p in files if "node_modules" not in p.parts]


def shared_runs(files: Iterable[Path], grams: dict[str, str]) -> list[Run]:
    """Every shared run in the given files."""
    return [run for path in files for run in scan(path, grams)]


def seed_sentences(text: str) -> list[list[str]]:
    """The content-word fingerprints of each seed sentence long enough to compare."""
    found = (sorted(content(s)) for s in sentences(text))
    return [words for words in found if len(words) >= SENTENCE_WORDS]


def refresh(seeds: Path) -> None:
    """Write the fingerprints of seeds/*.txt, then check the rule against the shared tool's."""
    files = sorted(seeds.glob("*.txt"))
    if not files:
        sys.exit(f"No seed documents (*.txt) in {seeds}.")
    data = {
        "about": "Truncated sha256 of every 8-word shingle of each seed document, and of each "
        "content word of each seed sentence, never the words; written by "
        "`python -m tests.own_words <seeds folder>` and read by "
        "tests/unit/test_own_words.py.",
        "words": WORDS,
        "hash_chars": HASH_CHARS,
        "seeds": {f.name: sorted(set(shingles(f.read_text(encoding="utf-8")))) for f in files},
        "sentences": {f.name: seed_sentences(f.read_text(encoding="utf-8")) for f in files},
    }
    FINGERPRINTS.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    tool = seeds.parent / "tools" / "seed_overlap.py"
    if tool.is_file():
        spec = importlib.util.spec_from_file_location("seed_overlap", tool)
        assert spec and spec.loader
        shared = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(shared)
        theirs_grams = shared.seed_ngrams(WORDS)
        ours_grams = load_fingerprints()
        # The seeds themselves are scanned too, so the comparison covers runs that are found.
        for path in [*course_files(), *files]:
            theirs = [tuple(hit) for hit in shared.scan(path, theirs_grams, WORDS)]
            ours = [(r.line, r.seed, r.text) for r in scan(path, ours_grams)]
            if theirs != ours:
                sys.exit(f"{path}: the shared tool finds {theirs}, this copy finds {ours}.")
        theirs_sents = [
            (f.name, s, shared.content(s))
            for f in files
            for s in shared.sentences(f.read_text(encoding="utf-8"))
            if len(shared.content(s)) >= SENTENCE_WORDS
        ]
        ours_sents = load_sentences()
        for path in (ROOT / "docs").rglob("*.md"):
            theirs_alike = [
                (m, round(sc, 6)) for sc, _, m, _ in shared.similar(path, theirs_sents, SIMILAR)
            ]
            ours_alike = [(a.text, round(a.score, 6)) for a in alike(path, ours_sents)]
            if theirs_alike != ours_alike:
                sys.exit(
                    f"{path}: the shared tool finds {theirs_alike}, this copy finds {ours_alike}."
                )
        print(f"The rule agrees with {tool} on the course files and the seeds.")
    print(f"Wrote {FINGERPRINTS.relative_to(ROOT)} from {len(files)} seed documents.")


if __name__ == "__main__":
    refresh(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "seeds")
