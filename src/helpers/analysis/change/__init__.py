"""What changed between groups of papers (years, venues, files): themes, terms and links.

Every function takes plain tables (``papers`` with a ``group`` column, the term map's paper x term
matrix) and returns tables with documented columns, so each can be tested on a DataFrame built by
hand; :func:`analyse_change` runs them all and returns one frozen :class:`ChangeResult`.

* **Theme prevalence** is the share of a group's papers whose strongest theme it is (``theme`` of
  :attr:`helpers.analysis.pipeline.Analysis.papers`), with Wilson's 95% score interval (never of
  zero width, and the intervals Newcombe's interval of a change is built from).
* **Change** between the first and the last group is the difference of those shares, with Newcombe's
  hybrid score interval and the two-sided test that interval inverts (:func:`newcombe_test`: the
  interval excludes 0 exactly when the test's p is below its level), the p-values corrected for testing
  every theme with Benjamini and Hochberg's false discovery rate (``scipy.stats.false_discovery_control``)
  and the intervals drawn at the matching level (Benjamini and Yekutieli 2005, :func:`adjusted_level`),
  so no interval disagrees with its corrected test.
* **Trend** over every group, in order: the Cochran-Armitage test for trend in proportions
  (:func:`trend_test`; Cochran 1954, Armitage 1955) with the groups' positions as scores, for each
  theme's share (Benjamini-Hochberg corrected over the themes) and for the share of papers linking.
* **Thematic map** (Cobo et al. 2011, bibliometrix's ``thematicMap``): each term of the term map
  belongs to the theme most of its papers have as strongest theme; in each group, Callon's
  *centrality* of a theme is ``10 x`` the sum of the equivalence indices ``e_ij = c_ij^2 / (c_i c_j)``
  of links from its terms to other themes' terms and its *density* ``100 x`` the sum over links among
  its own terms divided by its number of terms (Callon et al. 1991). The medians of the group split
  the quadrants: motor (both high), niche (dense, peripheral), emerging or declining (both low), basic
  (central, not dense). A theme's side of each median is settled only where the 95% interval of its
  distance to the median over :data:`N_MAP_BOOTSTRAP` resamples of the group's papers
  (``numpy.random.default_rng`` seeded with ``(seed, group number)``) excludes 0.
* **Terms**: the mean year (or group position) of the papers using each map term (VOSviewer's
  overlay), the terms that appear in the latest group only, and bursts (:func:`kleinberg_states`) when
  there are at least :data:`MIN_BURST_GROUPS` groups (over fewer, a burst cannot stand apart from the
  first or the last group).
* **Links**: the share of papers in state ``linked`` per group with Wilson 95% intervals, a
  chi-square test of equal shares across the groups, and the first-to-last difference with
  Newcombe's interval and the test it inverts, and the trend over every group (:func:`proportion_change`;
  no test on counts without spread, such as no paper linking in any group).
  Where papers carry a
  ``software`` field (a code link the authors gave the venue), the share of those papers whose
  abstract also gives a code link (:func:`software_coverage`).

The modules, one job each (the steps of :func:`analyse_change`, in :mod:`.result`):

1. :mod:`.group_order`, :func:`ordered_groups`: the groups in order (years ascending), each paper's group number.
2. :mod:`.prevalence`, :func:`theme_prevalence` and :func:`theme_change`: the themes' shares and their change.
3. :mod:`.thematic_map`, :func:`thematic_map`: Callon's centrality and density per theme and group.
4. :mod:`.terms`, :func:`term_change`, :func:`term_bursts` (:func:`kleinberg_states`): the terms over the groups.
5. :mod:`.link_shares`, :func:`link_change` and :func:`software_coverage`: the share of papers linking.
6. :mod:`.result`, :func:`analyse_change`: all of them as one :class:`ChangeResult` (its settings a
   :class:`ChangeSettings`).

The intervals and tests (Wilson, Newcombe and its test, Cochran-Armitage) are in
:mod:`helpers.analysis.statistics`, which the link analysis shares.
"""

from helpers.analysis.change.group_order import ordered_groups
from helpers.analysis.change.link_shares import link_change, software_coverage
from helpers.analysis.change.prevalence import ALPHA, adjusted_level, theme_change, theme_prevalence
from helpers.analysis.change.result import ChangeResult, ChangeSettings, analyse_change
from helpers.analysis.change.terms import (
                                         BURST_GAMMA,
                                         BURST_SCALE,
                                         MIN_BURST_GROUPS,
                                         kleinberg_states,
                                         term_bursts,
                                         term_change,
)
from helpers.analysis.change.thematic_map import N_MAP_BOOTSTRAP, QUADRANTS, thematic_map
from helpers.analysis.statistics import (ProportionChange, Trend, newcombe_interval, newcombe_test, proportion_change,
                                         trend_test)

__all__ = ["ChangeResult", "ChangeSettings", "ProportionChange", "analyse_change", "ordered_groups", "theme_prevalence",
           "theme_change", "thematic_map", "term_change", "kleinberg_states", "term_bursts", "link_change",
           "proportion_change", "software_coverage", "newcombe_interval", "newcombe_test", "adjusted_level", "ALPHA", "Trend",
           "trend_test", "N_MAP_BOOTSTRAP",
           "BURST_SCALE", "BURST_GAMMA", "QUADRANTS", "MIN_BURST_GROUPS"]
