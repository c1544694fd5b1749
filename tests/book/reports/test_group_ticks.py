"""Group names under a small panel never run into each other: on Web of Science traffic safety the 12 periods
(1991–1999 to 2017–2018) overlapped at 45 degrees in each third-of-a-column panel of the prevalence figure."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from helpers.book.reports.change_figures import _group_ticks  # noqa: E402

TRAFFIC = ["1991–1999", "2000–2004", "2005–2006", "2007–2008", "2009–2010", "2011", "2012", "2013", "2014", "2015",
           "2016", "2017–2018"]


def shown_labels(groups: list[str], width: float) -> list:
    figure, axis = plt.subplots(figsize=(width, 2.3))
    positions = np.arange(len(groups))
    axis.plot(positions, positions)
    _group_ticks(axis, positions, groups, fontsize=9)
    figure.tight_layout()
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    labels = [label for label in axis.get_xticklabels() if label.get_text()]
    assert labels[0].get_text() == groups[0] and labels[-1].get_text() == groups[-1]  # the compared groups named
    boxes = [label.get_window_extent(renderer) for label in labels]
    plt.close(figure)
    return boxes


def test_twelve_periods_in_a_third_of_a_column_do_not_overlap():
    boxes = shown_labels(TRAFFIC, 7.6 / 3)
    assert len(boxes) >= 5
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_few_groups_keep_every_name():
    assert len(shown_labels(["2014–2020", "2021–2023"], 7.6 / 3)) == 2
    assert len(shown_labels(TRAFFIC, 7.6)) == 12
