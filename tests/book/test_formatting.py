"""A share is never printed as 0% beside a count above 0: on Web of Science traffic safety the landing page and the
links chapter read "1 of 729 papers (0%, 95% interval 0% to 1%)"."""

from helpers.book.formatting import share_and_interval


def test_a_small_share_above_zero_gets_a_decimal_with_its_interval():
    assert share_and_interval(1 / 729, 0.00024, 0.0077) == ("0.1%", "0.0% to 0.8%")
    assert share_and_interval(728 / 729, 0.9923, 0.99976) == ("99.9%", "99.2% to 100.0%")


def test_other_shares_stay_whole_percentages():
    assert share_and_interval(0.0, 0.0, 0.0537) == ("0%", "0% to 5%")
    assert share_and_interval(0.1496, 0.10, 0.21) == ("15%", "10% to 21%")
    assert share_and_interval(1.0, 0.95, 1.0) == ("100%", "95% to 100%")
