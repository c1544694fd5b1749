"""The report figures are drawn for the text column and laid out so nothing collides: with 30 themes the t-SNE map
was a thin strip beside its legend, the word-cloud and "What changed" titles overlapped a panel, the thematic map's
key lost themes past its bottom and its theme numbers left the axes, and the grids grew to 30 panels. Each test
draws the figure from tables written here (30 themes, 12 groups), as the analysis gives them."""

from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import io  # noqa: E402
import re  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from PIL import Image  # noqa: E402

from helpers.book.figures import SAVE_PAD_INCHES  # noqa: E402
from helpers.book.reports import change_figures, drawing, findings, theme_figures, theme_paper_figures  # noqa: E402

N_THEMES = 30
GROUPS = tuple(str(year) for year in range(2013, 2025))
WORDS = ["crash", "severity", "driver", "speed", "intersection", "pedestrian", "helmet", "alcohol", "fatigue",
         "roadway", "lighting", "weather", "injury", "vehicle", "signal", "cyclist", "motorway", "enforcement",
         "camera", "curve"]


def theme_model(n_themes: int = N_THEMES, n_papers: int = 90) -> SimpleNamespace:
    """The tables of a theme model: ``themes``, ``top_terms``, ``weights``, ``selection``, ``settings``."""
    rng = np.random.default_rng(0)
    numbers = list(range(1, n_themes + 1))
    labels = [f"{WORDS[t % len(WORDS)]} · {WORDS[(3 * t + 1) % len(WORDS)]} modelling" for t in numbers]
    top_terms = pd.DataFrame([dict(theme=t, term=f"{WORDS[(t + r) % len(WORDS)]} {r}", weight=1.0 / r, rank=r)
                              for t in numbers for r in range(1, 26)])
    weights = pd.DataFrame(rng.dirichlet(np.full(n_themes, 0.1), n_papers),
                           columns=[f"theme_{t}" for t in numbers]).assign(paper_id=range(n_papers))
    selection = pd.DataFrame({"k": [10, 20, 30], "coherence": [0.1, 0.2, 0.15], "diversity": [0.9, 0.8, 0.7],
                              "stability": [0.8, 0.7, 0.9], "score": [0.5, 0.6, 0.55], "chosen": [False, True, False],
                              "readable": [True, True, False], "eligible": [True, True, True]})
    return SimpleNamespace(
        themes=pd.DataFrame({"theme": numbers, "label": labels, "n_papers": [100 - t for t in numbers]}),
        top_terms=top_terms, weights=weights, selection=selection,
        settings=SimpleNamespace(chosen_k=20, min_diversity=0.6, min_stability=0.6))


def model_papers(model: SimpleNamespace) -> pd.DataFrame:
    matrix = model.weights.drop(columns="paper_id").to_numpy()
    return pd.DataFrame({"paper_id": model.weights["paper_id"], "theme": matrix.argmax(axis=1) + 1,
                         "theme_weight": matrix.max(axis=1)})


def change_result(n_themes: int = N_THEMES) -> SimpleNamespace:
    """The tables of "What changed" over :data:`GROUPS`: theme shares and the thematic map."""
    rng = np.random.default_rng(1)
    labels = {t: f"{WORDS[t % len(WORDS)]} · {WORDS[(5 * t) % len(WORDS)]} · {WORDS[(7 * t) % len(WORDS)]} · road"
              for t in range(1, n_themes + 1)}
    prevalence = pd.DataFrame([dict(theme=t, label=labels[t], group=g, share=s, ci_low=max(s - 0.02, 0),
                                    ci_high=s + 0.02)
                               for t in labels for g, s in zip(GROUPS, rng.uniform(0, 0.1, len(GROUPS)))])
    thematic = pd.DataFrame([dict(group=g, theme=t, label=labels[t], centrality=c, density=d, n_papers=n)
                             for g in GROUPS for t, c, d, n in zip(labels, rng.uniform(0, 1, n_themes),
                                                                   rng.uniform(0, 1, n_themes),
                                                                   rng.integers(1, 60, n_themes))])
    change = pd.DataFrame({"theme": list(labels), "change": np.linspace(-0.1, 0.1, n_themes)})
    return SimpleNamespace(groups=GROUPS, theme_prevalence=prevalence, thematic_map=thematic, theme_change=change)


def drawn(figure):
    """Lay the figure out as it is saved (constrained layout runs at draw time)."""
    figure.canvas.draw()
    return figure.canvas.get_renderer()


def title_overlaps(figure) -> list[str]:
    """The panels whose box the figure's title overlaps."""
    renderer = drawn(figure)
    title = figure._suptitle
    assert title is not None and title.get_text(), "the figure has a title"
    box = title.get_window_extent(renderer)
    return [axis.get_title() or axis.get_label() for axis in figure.axes
            if axis.get_visible() and axis.axison and box.overlaps(axis.get_tightbbox(renderer))]


def saved_width_inches(figure) -> float:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", pad_inches=SAVE_PAD_INCHES)  # as save_figure
    return Image.open(io.BytesIO(buffer.getvalue())).size[0] / 100


def text_sizes(figure) -> list[float]:
    renderer = drawn(figure)
    return [text.get_fontsize() for text in figure.findobj(Text)
            if text.get_visible() and text.get_text().strip() and text.get_window_extent(renderer).width > 0]


def visible_panels(figure) -> list:
    return [axis for axis in figure.axes if axis.axison or axis.get_images()]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_grids_of_thirty_themes_show_at_most_twelve_panels_under_a_clear_title():
    model = theme_model()
    for make in (theme_figures.top_terms_figure, theme_figures.wordcloud_figure):
        figure, data = make(model, "Road safety, 2013–2024: 900 abstracts")
        assert len(visible_panels(figure)) == drawing.MAX_PANELS, make.__name__
        assert data["theme"].nunique() == N_THEMES  # the CSV keeps every theme
        assert "12 largest of the 30 themes" in figure.get_suptitle()
        assert title_overlaps(figure) == [], make.__name__


def test_grids_are_drawn_at_column_width_with_text_of_eight_points_or_more():
    model = theme_model()
    for make in (theme_figures.top_terms_figure, theme_figures.wordcloud_figure, theme_figures.selection_figure):
        figure, _ = make(model, "Road safety, 2013–2024: 900 abstracts")
        assert saved_width_inches(figure) <= drawing.SHOWN_INCHES, make.__name__
        sizes = text_sizes(figure)
        assert min(sizes) >= drawing.SMALL_PT and np.median(sizes) >= drawing.TEXT_PT, make.__name__


def test_word_clouds_use_dark_colours_and_words_of_eight_points_or_more():
    clouds = []
    original = theme_figures.cloud_image

    def recording(*args, **kwargs):
        cloud = original(*args, **kwargs)
        clouds.append(cloud)
        return cloud

    theme_figures.cloud_image = recording
    try:
        figure, _ = theme_figures.wordcloud_figure(theme_model(n_themes=4), "Poultry, 2020: 40 abstracts")
    finally:
        theme_figures.cloud_image = original
    assert len(clouds) == 4
    renderer = drawn(figure)
    image_axes = [axis for axis in figure.axes if axis.get_images()]
    for axis, cloud in zip(image_axes, clouds):
        points_per_pixel = axis.get_window_extent(renderer).width * 72 / figure.dpi / cloud.width
        assert min(size for _, size, _, _, _ in cloud.layout_) * points_per_pixel >= drawing.SMALL_PT
        for *_, colour in cloud.layout_:
            red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", colour)) if colour.startswith("rgb") \
                else to_rgb(colour)
            assert 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.45, colour  # no yellow or pale word on white


def test_map_of_thirty_themes_keeps_its_plot_wide_and_every_theme_in_its_key():
    model = theme_model()
    figure, _ = theme_paper_figures.paper_map_figure(model, model_papers(model), "Road safety, 2013–2024: 900 abstracts")
    renderer = drawn(figure)
    plot = figure.axes[0]
    assert plot.get_window_extent(renderer).width >= 0.8 * figure.bbox.width  # not a strip beside a legend
    legend = plot.get_legend() or figure.legends[0]
    key = [text.get_text() for text in legend.get_texts()]
    assert [entry.split(".")[0] for entry in key] == [str(t) for t in range(1, N_THEMES + 1)]
    assert saved_width_inches(figure) <= drawing.SHOWN_INCHES
    assert min(text_sizes(figure)) >= drawing.SMALL_PT


def test_prevalence_of_thirty_themes_shows_twelve_panels_under_a_clear_title():
    figure, data = change_figures.prevalence_figure(change_result(), "Road safety, 2013–2024: 900 abstracts")
    assert len(visible_panels(figure)) == drawing.MAX_PANELS
    assert data["theme"].nunique() == N_THEMES
    assert title_overlaps(figure) == []
    assert saved_width_inches(figure) <= drawing.SHOWN_INCHES
    assert min(text_sizes(figure)) >= drawing.SMALL_PT


def test_thematic_map_keys_every_theme_and_keeps_its_numbers_inside_the_axes():
    figure, _ = change_figures.thematic_map_figure(change_result(), "Road safety, 2013–2024: 900 abstracts")
    renderer = drawn(figure)
    panels = [axis for axis in figure.axes if axis.get_label() == "group"]
    key = next(axis for axis in figure.axes if axis.get_label() == "key")
    key_texts = [text for text in key.texts if text.get_text().strip()]
    assert sorted(int(text.get_text().split()[0]) for text in key_texts) == list(range(1, N_THEMES + 1))
    figure_box = figure.bbox
    boxes = [text.get_window_extent(renderer) for text in key_texts]
    for box in boxes:  # inside the figure, none on another
        assert figure_box.x0 <= box.x0 and box.x1 <= figure_box.x1 and figure_box.y0 <= box.y0
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    for axis in panels:
        inside = axis.get_window_extent(renderer)
        for number in axis.texts:
            if number.get_text().isdigit():
                box = number.get_window_extent(renderer)
                assert inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
    assert title_overlaps(figure) == []
    assert saved_width_inches(figure) <= drawing.SHOWN_INCHES
    assert min(text_sizes(figure)) >= drawing.SMALL_PT
    # Twelve groups, thirty themes: the panels and the key still fit a printed page (6.5 x 9 in) with its caption.
    width, height = figure.get_size_inches()
    assert height * min(1.0, 6.5 / width) <= 8.0


def test_landing_overview_fits_the_column_with_readable_text(seed_analysis):
    figure, _ = findings.overview_figure(seed_analysis)
    assert saved_width_inches(figure) <= drawing.SHOWN_INCHES
    assert min(text_sizes(figure)) >= drawing.SMALL_PT
    assert title_overlaps(figure) == []
