"""What a chapter's text shows: the glue names of its roles and directives (the glue contract's one side)."""

from __future__ import annotations

import re

GLUE = re.compile(r"\{glue(?::text|:md)?\}`([^`]+)`|\{glue:(?:md|figure)\} (\S+)")


def glue_names(markdown: str) -> set[str]:
    """The glue names a page's text shows (roles and directives).

    >>> sorted(glue_names("{glue:text}`n` and {glue}`m`\\n```{glue:figure} fig_a\\n```"))
    ['fig_a', 'm', 'n']
    """
    return {role or directive for role, directive in GLUE.findall(markdown)}
