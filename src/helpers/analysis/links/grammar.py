"""The availability grammar's words and patterns, read by :mod:`.claims` and :mod:`.availability`.

Kept apart from the code that reads them so that the words a claim is made of can be read, and extended, in one
place. All are matched on lower-case text, in which a URL is replaced by :data:`LINK`; :mod:`.availability`
states the forms of a claim that they make up.
"""

from __future__ import annotations

import re

__all__ = ["LINK", "LEFT_WINDOW", "RIGHT_WINDOW"]

# ---- the grammar's words (all matched on lower-case text; a URL is replaced by LINK) ----
#: What a URL is replaced by before the grammar reads a sentence.
LINK = "⟨link⟩"
_NOUN = (r"(?:source[- ]?codes?|codes?|codebase|implementations?|librar(?:y|ies)|toolkits?|toolbox(?:es)?|"
         r"packages?|software|repositor(?:y|ies)|repos?|datasets?|data[- ]?sets?|data|benchmarks?|models?|"
         r"weights|checkpoints?|demos?|(?:project|web|home)[- ]?(?:page|site)s?|pages?|websites?|leaderboards?|"
         r"samples|examples|videos|supplementary(?:\s+materials?)?|materials|resources|tools?|suites?|"
         r"corpus|corpora|annotations|scripts?|notebooks?|apis?|prompts|simulators?|environments?|"
         r"platforms?|frameworks?|plugins?|apps?)")
_OWNER = r"(?:our|the|all(?:\s+(?:of\s+)?(?:our|the))?|this|these|its|both(?:\s+the)?|my|accompanying)"
_FOREIGN = re.compile(
    r"\b(?:public|publicly|available|open[- ]?source[d]?|existing|pre-?trained|external|third[- ]party|"
    r"unlabell?ed|labell?ed|target|input|offline|real[- ]world|standard|prior|previous|other|such|any|no|"
    r"many|their|proprietary|private|popular|common|widely|several|various|some|most|large-scale|"
    r"a|an|more|less|fewer|new)\b")
_SUBORDINATE = re.compile(
    r"\b(?:where|when|whenever|if|unless|since|because|although|though|whereas|while|until|whether|"
    r"provided that|as long as|even)\b")
_CLAUSE_OPENERS = re.compile(
    r"^(?:(?:finally|additionally|moreover|furthermore|also|besides|importantly|lastly|further|thus|hence|"
    r"therefore|in addition|to this end|to facilitate [\w\s-]{0,40}?|to foster [\w\s-]{0,40}?|"
    r"to support [\w\s-]{0,40}?|for reproducibility|to ensure reproducibility)\s*,?\s*)+")
_VERB_GROUP = (r"(?:(?:(?:is|are)(?:\s+yet)?\s+to\s+be|is|are|was|were|has been|have been|had been|"
               r"will(?:\s+(?:also|soon|then|later))?\s+be|would be|shall be|can(?:\s+also)?\s+be|could be|"
               r"may be|might be|should be|is being|are being|"
               r"being|to be|becomes?|remains?|gets?|got)\s+)")
_ADVERBS = r"(?:(?:now|also|made|all|publicly|freely|openly|fully|readily|easily|further|soon|then|later|" \
           r"thus|hence|therefore|completely|partially|entirely|already|currently|recently|today|henceforth)\s+)*"
_STRONG = (r"(?:available|avialable|availabe|availble|avaliable|released|open[- ]?sourced|open[- ]source|"
           r"opensource|public|accessible|downloadable|hosted|obtainable|"
           r"(?:at|on|in|from|via|under)\s+" + LINK + "|"
           r"(?:at|on|in|from|via)\s+(?:our|the|its|this|a)\s+(?:anonymous\s+|github\s+|project\s+)?"
           r"(?:page|website|webpage|homepage|site|repository|repo|link|url)\b|"
           r"on\s+(?:github|gitlab|bitbucket|hugging ?face|zenodo|kaggle|figshare|pypi)\b)")
_WEAK = (r"(?:provided|shared|found|located|published|accessed|downloaded|obtained|deposited|uploaded|posted|"
         r"included)")
_PLACE = (r"\s*(?::|at\b|on\b|in\b|from\b|via\b|through\b|here\b|under\b|online\b|" + LINK
          + r"|to the (?:public|community)|for (?:public|research|download|academic))")
_PLACE_AT = re.compile(_PLACE)
# The predicate is found first (a plain alternation, fast); the verb group is read back from its left.
_PREDICATE = re.compile(rf"(?:(?P<strong>{_STRONG})|(?P<weak>{_WEAK}))(?!\w)")
_VERB_BEFORE = re.compile(rf"(?P<verb>{_VERB_GROUP})?(?P<neg>(?:not|never|no longer)\s+)?{_ADVERBS}$")
# Where a claim may stop without naming a place: "Code is provided.", "Code available upon request."
_CLAUSE_END = re.compile(r"\s*(?:[.;!]|$|upon\b|on\s+request|soon\b|after\b|once\b|"
                         r"with\s+(?:the|this)\s+(?:paper|submission|article|manuscript))")
# Nouns that are software or data whatever the context (a weak predicate with no place needs one).
_SOFTWARE = re.compile(r"\b(?:code|codes|codebase|implementations?|software|librar(?:y|ies)|packages?|toolkits?|"
                       r"toolbox(?:es)?|scripts?|notebooks?|datasets?|benchmarks?|checkpoints?|weights)\b")
_BENEFICIARY = re.compile(
    r"\s+(?:only\b|to\s+(?!(?:the\s+)?(?:public|community|research|researchers?|everyone|anyone|all\s*(?:[.;]|$)|"
    r"facilitate|foster|support|encourage|enable|reproduce|promote|ensure|help)\b)"
    r"(?:(?:the|a|an|each|every|any|all|both|its|their|his|her|only|other|some|these|those|this|that|such|"
    r"one|two|three|no)\b|[a-z-]*[^s\W]s\b)|"
    r"by\s+(?!us\b|the authors\b)|at\s+(?:training|test|inference|deployment|run)[- ]?time|"
    r"in\s+(?:many|most|some|practice|real|such|these|those)\b|for\s+(?:free|many|most|some)\b|"
    r"as\s+(?:a|an)\s+(?:prior|baseline))")
_WE_CLAIM = re.compile(
    r"\bwe\s+(?:[\w-]+\s+and\s+)?(?P<pre>(?:(?:also|will|further|hereby|publicly|now|therefore|thus|plan to|"
    r"intend to|are going to|would like to|shall|have|additionally|then|openly|fully)\s+)*)"
    r"(?P<verb>make|made|release[sd]?|open[- ]?source[sd]?|publish(?:ed)?|share[sd]?|provide[sd]?|"
    r"host(?:ed)?|upload(?:ed)?)\b(?P<obj>[^;]{0,90})")
_WE_OBJECT = re.compile(rf"^\s+(?:{_OWNER}\s+|an?\s+)?(?:[\w'’.-]+\s+){{0,4}}?{_NOUN}\b")
_LABEL = re.compile(
    rf"(?:^|[.;,:(]\s*|\band\s+)(?:{_OWNER}\s+)?(?:[\w'’-]+\s+){{0,2}}?{_NOUN}"
    rf"(?:\s*(?:,|and|&|/)\s*(?:[\w'’-]+\s+){{0,2}}?{_NOUN})*\s*(?::|at|on|in|via|-|–|\()\s*" + LINK)
_OPEN_SOURCE_LABEL = re.compile(
    rf"^(?:open[- ]?source|public|publicly available)\s+{_NOUN}\s+(?:is\s+|are\s+)?(?:at|on|in|via)\b")
_PROMISE = re.compile(
    r"\b(?:will|shall|going to|plans? to|planned to|intends? to|to be (?:released|made|open|published|shared)|"
    r"(?:upon|after|following|before|on)\s+(?:the\s+)?(?:paper'?s?\s+)?(?:acceptance|publication|"
    r"camera[- ]ready|review)|(?:upon|on|by)\s+(?:reasonable\s+)?request|coming soon|\bsoon\b|"
    r"in (?:the|a) (?:near )?future|forthcoming|once (?:the |this |our )?(?:paper|work|manuscript)?\s*"
    r"(?:is |has been )?(?:accepted|published)|at a later)\b")
_POINTER = re.compile(
    r"\b(?:here|below|above|following|project[- ]?(?:page|site|website|webpage)|website|webpage|homepage|"
    r"(?:this|that|the|our|its|a|anonymous)\s+(?:anonymous\s+|github\s+|project\s+)?(?:link|url|address|page|site|"
    r"repository|repo)|github|gitlab|hugging ?face|zenodo|kaggle|link|url)\b")
_HOSTS_NAMED = re.compile(r"\b(?:github|gitlab|bitbucket|hugging ?face|zenodo|kaggle|figshare|osf|codeberg)\b")
# Words without which no sentence is a claim (a fast pre-check: most sentences have none of them).
_PRECHECK_STEMS = (
    "availab", "avialab", "availb", "avalia", "releas", "open[- ]?sourc", "opensourc", "public", "accessib",
    "download", "host", "obtainab", "provide", "share", "found", "located", "publish", "deposit", "upload", "posted",
    "included", "http", r"www\.", r"\.(?:com|org|io|net|edu|ai)\b", "github", "gitlab", "doi:", "arxiv:", r"page\b",
    r"site\b", "repositor", r"repo\b", r"link\b", r"url\b", "hugging", "zenodo", "kaggle", "pypi")
_PRECHECK = re.compile("|".join(_PRECHECK_STEMS))
# The paper's own new artefact called open-source where the authors introduce it ("we build an open-source
# agent", "we present Foo, a family of open-source models"); not someone else's tool ("we extend the
# open-source solver Y", "open-source LLMs such as Y"): the verb must introduce, and no preposition may
# come between it and the adjective.
_OPEN_ADJECTIVE = (r"(?:(?:fully|completely|entirely|freely)\s+)?(?:open[- ]?source[d]?|opensource|"
                   r"publicly[- ](?:available|released|accessible)|open[- ]weights?)")
_NP_WORD = (r"(?!(?:with|on|of|for|from|to|in|into|by|using|uses|use|via|against|and|or|than|that|which|who|whose|"
            r"as|like|such|based|over|under|across|between|among|existing|other|their|popular|prior|previous|"
            r"several|various|many|most|some|these|those|is|are|was|were)\b)[\w.+'’-]+,?")
_INTRODUCED_OPEN = re.compile(
    r"\b(?:we|us\s+to|(?:this|the present|our)\s+(?:paper|work|article|study|report))\s+"
    r"(?:(?:also|further|then|additionally|hereby|now|first|finally|here)\s+)*"
    r"(?P<verb>introduce[sd]?|present(?:s|ed)?|build|built|builds|develop(?:s|ed)?|provide[sd]?|propose[sd]?|"
    r"release[sd]?|offer(?:s|ed)?|create[sd]?|design(?:s|ed)?|construct(?:s|ed)?|contribute[sd]?|"
    r"implement(?:s|ed)?|curate[sd]?|unveil(?:s|ed)?)\s+"
    rf"(?P<np>(?:[\w.+-]+(?:\s+[\w.+-]+)?\s*[,:]\s+)?(?:(?:an?|the|our|two|three|four|five|new)\s+)?"
    rf"(?:(?:family|suite|set|collection|series|pair)\s+of\s+)?(?:{_NP_WORD}\s+){{0,2}}?{_OPEN_ADJECTIVE}[\s,]+"
    rf"(?:{_NP_WORD}\s+){{0,2}}{_NP_WORD.removesuffix(',?')})(?!\w)")
# Hedged intentions of the authors or an organisation ("we are considering releasing the data", "Acme
# plans to open-source the weights"): promises. Read on the sentence as written, so that a capitalised
# name can be the subject.
_HEDGE = re.compile(r"consider|plan|intend|aim|hope")
_INTENT = re.compile(
    r"(?:^|[.;:]\s+|,\s*)(?:(?i:here|now|next|finally|additionally|moreover|in addition|in (?:the )?future),?\s+)?"
    r"(?P<subject>(?i:we|the\s+authors|(?:our|the)\s+(?:team|group|lab|laboratory|organi[sz]ation|company|"
    r"consortium|developers|maintainers))|[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s+"
    r"(?i:(?:(?:is|are|am|were|was)\s+(?:(?:also|currently|now|actively|still)\s+)?"
    r"(?:considering|planning|intending|aiming|hoping)|(?:(?:also|further|currently|now)\s+)?"
    r"(?:considers?|plans?|intends?|aims?|hopes?))\s+(?:to\s+|on\s+)?"
    r"(?P<verb>make|making|release|releasing|open[- ]?sourc(?:e|ing)|publish|publishing|share|sharing)\b"
    r"(?P<obj>[^;.]{0,90}))")
_MAYBE_URL = re.compile(r"https?\s*:|https?//|www\.|doi:|arxiv:|\.(?:com|org|io|co|net|edu|science)\b|"
                        r"(?:git(?:hub|lab)|hugging\s?face)\b[^.]{0,40}/|"
                        r"/[^.]{0,120}\b(?:git(?:hub|lab)|hugging\s?face)")


# A phrase in commas between an artefact and its verb ("The corpus, which we annotated by hand, is ...",
# "Our simulator, written in Rust, is ..."): set aside, so that the artefact stays the subject.
_PARENTHETICAL = re.compile(rf"\b(?P<noun>{_NOUN})\s*,\s*(?!(?:and|or|but|as well as)\b)[^,;:]{{1,100}},\s*$")


# Where one clause ends and the next begins: the subject is read in the last clause before the verb.
_CLAUSE_BREAK = re.compile(r"[;:—–]|\.(?!\d)|\s--\s|,\s*(?:and|but|while|which|whereas)\s|\band\s+(?=we\b)")
_NEGATED_END = re.compile(r"\b(?:not|never)\s*$")
# How far the grammar reads on each side of an availability word, so that its work grows with the length
# of a sentence, not with its square (a block without full stops is one long sentence). A subject with its
# verb, or a place after the predicate, is far shorter. The last _SAFE characters before the verb are always
# read whole: a phrase in commas or a clause break there is seen as in the whole sentence.
#: Characters read before an availability word (the clause it ends) and after it (the place it names).
LEFT_WINDOW = 400
RIGHT_WINDOW = 200
_SAFE = 150


# A subject: [owner] up to four modifiers and an artefact noun ...
_SUBJECT = re.compile(rf"(?:(?P<owner>{_OWNER})\s+)?(?P<mods>(?:[\w'’.-]+\s+){{0,4}}?)(?P<noun>{_NOUN})\b")
# ... then more nouns ("implementation code"), a name in commas ("our library, fastlib,"), a list
# ("code, checkpoints and data") and a complement
# ("for GIC", "to reproduce our experiments", "of this work") before the verb.
_SUBJECT_REST = re.compile(
    rf"(?:\s+{_NOUN}\b)*(?:\s*,\s*[\w'’. -]{{1,40}},)?"
    rf"(?:\s*(?:,|and|&|/|as well as)\s*(?:{_OWNER}\s+)?(?:[\w'’.-]+\s+){{0,3}}?{_NOUN}\b)*"
    r"(?:\s+(?:of|for|to|from|behind|used|accompanying|supporting|underlying|that|and|in)\b[^,]{0,70})?\s*,?\s*$")

