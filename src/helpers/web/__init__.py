"""The web layer: the paper explorer and the interactive term map, browser programs shipped as package files
(``static/``) that Python fills with data. It imports the analysis layer only."""
