"""A fair daily (issue 18): every date's computer players in the same form, so the day does not
decide; the band itself is measured by benchmarks/fair_daily.py (its quick run is tested here)."""

from __future__ import annotations

from ewar import cpu
from ewar.deal import daily_seed
from ewar.game import Game


def test_every_daily_has_the_same_form():
    dates = [f"2027-{month:02d}-{day:02d}" for month in (1, 4, 7, 10) for day in (1, 9, 17, 25)]
    assert {Game.daily(date).form for date in dates} == {cpu.DAILY_FORM_PERMILLE}


def test_practice_games_still_draw_their_form():
    forms = {Game(seed).form for seed in range(40)}
    low, high = cpu.FORM_PERMILLE
    assert len(forms) > 20 and all(low <= form <= high for form in forms)


def test_the_daily_deal_is_still_the_date_s():
    game = Game.daily("2027-03-14")
    assert game.seed == daily_seed("2027-03-14")
    assert game.deal == Game(daily_seed("2027-03-14")).deal
