"""The score judge against honest daily games on the current engine (issue 30), in one run.

Human-like players of both models (tests/players.py: lognormal, and ex-Gaussian with median M,
spread 0.12 M, tail 0.25 M), every tap unstoppable in its last 200 ms, medians 300-900 ms taking
turns, play dailies of dates of both editions (ewar/editions.py: from 2026-11-01 on, a date a game);
each record is judged as the scores function judges it (``ewar.judge.judge``). Printed per model and
median: the games refused and why. An honest game refused is a bug of the judge.

    nice -n 10 python benchmarks/judge_honest.py [--games 3000] [--workers 1]
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar import __version__  # noqa: E402
from ewar.errors import EwarError  # noqa: E402
from ewar.game import Game  # noqa: E402
from ewar.judge import judge  # noqa: E402
from ewar.replay import Replay  # noqa: E402
from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play  # noqa: E402

MEDIANS = range(300, 901, 50)
COMMIT_MS = 200
MODELS = {"lognormal": HumanLikePlayer, "ex-Gaussian": ExGaussianPlayer}
FIRST_DATE = datetime.date(2026, 11, 1)
DATES = 790  # through the end of 2028: both editions, the deal tables and past them
PLAYERS = 7_000_000  # numbered from here: none of the tuning's nor the other benchmarks'


def verdict(task: tuple) -> tuple:
    """(model, median, ``accepted`` or the refusal's code) for game ``number`` of ``model``."""
    model, number = task
    median = MEDIANS[number % len(MEDIANS)]
    date = (FIRST_DATE + datetime.timedelta(days=number % DATES)).isoformat()
    player = MODELS[model](median, PLAYERS + number * 104_729, commit_ms=COMMIT_MS)
    record = Replay.of(play(Game.daily(date), player)).to_json()
    try:
        judge(record, date)
    except EwarError as error:
        return model, median, f"{error.code}: {error}"
    return model, median, "accepted"


def print_refusals(verdicts: dict[str, dict[int, Counter]], medians) -> None:
    """A Markdown table of the judge's verdicts ({model: {median: Counter of codes}}): refused of judged
    per median and model (with the refusals' codes), and in all."""
    models = list(verdicts)
    print("| median | " + " | ".join(f"{model} refused" for model in models) + " |")
    print("|---|" + "---|" * len(models))
    for median in medians:
        cells = []
        for model in models:
            counts = verdicts[model][median]
            games = sum(counts.values())
            why = ", ".join(f"{code} {n}" for code, n in counts.items() if code != "accepted")
            cells.append(f"{games - counts['accepted']} of {games}" + (f" ({why})" if why else ""))
        print(f"| {median} ms | " + " | ".join(cells) + " |")
    totals = []
    for model in models:
        counts = sum(verdicts[model].values(), Counter())
        totals.append(f"{sum(counts.values()) - counts['accepted']} of {sum(counts.values())}")
    print("| all | " + " | ".join(totals) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games of each model")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    verdicts = {model: {median: Counter() for median in MEDIANS} for model in MODELS}
    tasks = [(model, number) for number in range(args.games) for model in MODELS]
    with Pool(args.workers) as pool:
        for done, (model, median, said) in enumerate(
            pool.imap_unordered(verdict, tasks, chunksize=8), 1
        ):
            verdicts[model][median][said] += 1
            if said != "accepted" or done % 500 == 0:  # a long run shows how it goes
                refused = sum(c[k] for m in verdicts.values() for c in m.values() for k in c)
                refused -= sum(c["accepted"] for m in verdicts.values() for c in m.values())
                print(f"  {done} of {len(tasks)} judged, {refused} refused", file=sys.stderr)
    print(
        f"engine {__version__}: the judge against {args.games} honest dailies of each model "
        f"(medians {MEDIANS.start}-{MEDIANS.stop - 1} ms in turn, taps unstoppable in their last "
        f"{COMMIT_MS} ms, dates {FIRST_DATE} on)"
    )
    print_refusals(verdicts, MEDIANS)
    for model in MODELS:
        for median, counts in verdicts[model].items():
            for said, n in counts.items():
                if said != "accepted":
                    print(f"refused ({model}, {median} ms) x{n}: {said}")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
