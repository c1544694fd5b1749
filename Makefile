# Two commands do everything: `make book` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORPUS ?= data/raw
MATHJAX_VERSION := 3.2.2
# The interactive term map's library (helpers.web.term_map), pinned by version and by the registry's sha512.
CYTOSCAPE_VERSION := 3.35.0
CYTOSCAPE_SHA512 := sMvBIXiGMnhkCaWz2R06FwF/27MNlS+Tqvi17foO9UhnUg3XGZccKjxsvEqQFAQYMSSZmN5SxYzUYlQ0DOJJ3g==
INSTALLED := $(VENV)/.installed
VENDOR := _vendor/mathjax/es5/tex-chtml.js _vendor/cytoscape/cytoscape.min.js _vendor/favicon.ico
# Run a command with the network cut off where the machine allows it (root + unshare).
CAN_UNSHARE := $(shell [ "$$(id -u)" = 0 ] && unshare -n true 2>/dev/null && echo yes)
ifeq ($(CAN_UNSHARE),yes)
OFFLINE := unshare -n sh -c 'ip link set lo up && exec "$$0" "$$@"'
endif

.PHONY: setup book publish test lint test-js test-unit test-chapters strict-book latex-book test-browser lab lab-deps browser-deps clean bench bench-quick bench-large bench-peers word-intrusion term-quality profile linkcheck pdf check-determinism

setup: $(INSTALLED) $(VENDOR)

$(INSTALLED): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.txt
	$(BIN)/python -m pip install -q --no-deps -e .
	$(BIN)/python -m pip check
	touch $@

_vendor/mathjax/es5/tex-chtml.js:
	rm -rf _build/npm && mkdir -p _build/npm _vendor/mathjax
	cd _build/npm && npm pack --silent mathjax@$(MATHJAX_VERSION) && tar xzf mathjax-$(MATHJAX_VERSION).tgz
	rm -rf _vendor/mathjax/es5 && cp -r _build/npm/package/es5 _vendor/mathjax/es5
	test -f $@

# Served by the book at _static/cytoscape/ (html_static_path: [_vendor]); its MIT licence goes with it.
_vendor/cytoscape/cytoscape.min.js:
	rm -rf _build/npm-cytoscape && mkdir -p _build/npm-cytoscape _vendor/cytoscape
	cd _build/npm-cytoscape && npm pack --silent cytoscape@$(CYTOSCAPE_VERSION) && \
	  { test "$$(openssl dgst -sha512 -binary cytoscape-$(CYTOSCAPE_VERSION).tgz | base64 -w0)" = "$(CYTOSCAPE_SHA512)" || \
	    { echo "cytoscape-$(CYTOSCAPE_VERSION).tgz does not match the pinned sha512"; exit 1; }; } && \
	  tar xzf cytoscape-$(CYTOSCAPE_VERSION).tgz
	cp _build/npm-cytoscape/package/LICENSE _vendor/cytoscape/LICENSE
	cp _build/npm-cytoscape/package/dist/cytoscape.min.js $@

_vendor/favicon.ico: $(INSTALLED)
	mkdir -p _vendor
	$(BIN)/python -c "from PIL import Image; Image.new('RGB', (32, 32), (31, 88, 150)).save('$@')"

# One output folder (and so one execution cache) per corpus + settings + code,
# so switching CORPUS never serves notebooks executed on another corpus. The pages are executed
# on every core first (helpers.book.build.prebuild), into the cache the build then reads.
book: setup
	@key=$$(BOOK_CORPUS="$(CORPUS)" $(BIN)/python -m helpers fingerprint $(CORPUS)) && \
	echo "corpus: $(CORPUS) (build key $$key)" && \
	export BOOK_CORPUS="$(CORPUS)" BOOK_FIGURE_DIR=_build/books/$$key/_build/html/figures && \
	$(BIN)/python -m helpers.book.build.prebuild --path-output _build/books/$$key && \
	$(BIN)/jupyter-book build . --path-output _build/books/$$key && \
	ln -sfn books/$$key/_build/html _build/html && \
	echo "book: _build/html/index.html"

# The book for the address it is published at (BOOK_BASE_URL, e.g. https://owner.github.io/repo/): every figure
# citation absolute under it, and .nojekyll so GitHub Pages serves _static/ and _images/ as they are. The Pages
# workflow (.github/workflows/pages.yml) runs it.
publish:
	@test -n "$(BOOK_BASE_URL)" || { echo "make publish: set the book's address, e.g. make publish BOOK_BASE_URL=https://owner.github.io/repo/"; exit 2; }
	$(MAKE) book BOOK_BASE_URL="$(BOOK_BASE_URL)"
	touch _build/html/.nojekyll
	@echo "published book: _build/html (for $(BOOK_BASE_URL))"

test: setup lint test-js test-unit test-chapters strict-book latex-book test-browser

# The browser programs (src/helpers/web/static/*.js): ESLint, then their pure functions under node's own test
# runner. The tools come from the npm registry, pinned by tests/js/package-lock.json; `npm ci` runs again when
# the lock changes (npm ci empties node_modules, so the stamp is written after it).
JS_TESTS := tests/js
$(JS_TESTS)/node_modules/.installed: $(JS_TESTS)/package.json $(JS_TESTS)/package-lock.json
	@command -v npm >/dev/null || { echo "install Node.js 20.19+ with npm to lint and test the browser programs"; exit 1; }
	cd $(JS_TESTS) && npm ci --no-audit --no-fund
	touch $@

test-js: $(JS_TESTS)/node_modules/.installed
	$(JS_TESTS)/node_modules/.bin/eslint --max-warnings 0 --config $(JS_TESTS)/eslint.config.js src/helpers/web/static $(JS_TESTS)
	cd $(JS_TESTS) && node --test --test-reporter=spec

# ruff and mypy, and pytest-xdist for the tests (requirements-dev.txt, installed beside the pins without changing
# them), as pyproject.toml sets them.
DEV_INSTALLED := $(VENV)/.dev-installed
$(DEV_INSTALLED): $(INSTALLED) requirements-dev.txt
	mkdir -p _build
	$(BIN)/python -m pip freeze --exclude-editable > _build/dev-constraints.txt
	$(BIN)/python -m pip install -q -r requirements-dev.txt -c _build/dev-constraints.txt
	touch $@

lint: $(DEV_INSTALLED)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

# JupyterLab (lab-deps) too: helpers.book.lab.contents and the notebook tests need it. On every core with
# pytest-xdist (requirements-dev.txt): each worker has its own analysis cache and figure folder (tests/conftest.py);
# a file's tests stay on one worker (--dist loadfile), so a module fixture (a corpus analysed once) runs once.
test-unit: setup lab-deps $(DEV_INSTALLED)
	$(BIN)/python -m pytest -m "not browser and not chapters" -n auto --dist loadfile

# Every chapter run as a plain notebook in a Jupyter kernel on a small corpus (tests/chapters/test_notebooks.py): slower
# than the unit tests (a kernel and an analysis per page), so a target of its own; make test runs both.
test-chapters: setup lab-deps $(DEV_INSTALLED)
	$(BIN)/python -m pytest -m chapters -n auto

# Debian's Chromium for the browser tests (never a browser download by playwright), with a CJK font
# so screenshots show the Chinese file header instead of boxes.
BROWSER_PACKAGES := chromium fonts-noto-cjk
browser-deps:
	@{ test -x /usr/bin/chromium && test -d /usr/share/fonts/opentype/noto; } || \
	  { [ "$$(id -u)" = 0 ] && { apt-get install -y $(BROWSER_PACKAGES) || { apt-get update && apt-get install -y $(BROWSER_PACKAGES); }; }; } || \
	  { echo "install Debian's $(BROWSER_PACKAGES) (apt-get install $(BROWSER_PACKAGES)) to run the browser tests"; exit 1; }

# One browser test file per worker (pytest-xdist, requirements-dev.txt): the hostile and the other-field books are
# built while the seed book's pages are read (on two cores 3.3 minutes instead of 4.3).
test-browser: setup browser-deps lab-deps $(DEV_INSTALLED)
	BOOK_HTML=_build/strict/_build/html $(BIN)/python -m pytest -m browser -p no:cacheprovider -n auto --dist loadfile

# A clean, strict build with the network cut off: any warning or cell error fails. Built for an address
# (STRICT_BASE_URL, never fetched), so the browser tests check its absolute figure citations and links served
# under /book/ (tests/browser/test_built_book.py) without a build of their own.
STRICT_BASE_URL := https://book.invalid/book/
strict-book: setup
	rm -rf _build/strict
	export BOOK_CORPUS=data/raw BOOK_ANALYSIS_CACHE=_build/strict/analysis-cache \
	  BOOK_FIGURE_DIR=_build/strict/_build/html/figures BOOK_BASE_URL=$(STRICT_BASE_URL) && \
	$(OFFLINE) $(BIN)/python -m helpers.book.build.prebuild --path-output _build/strict && \
	$(OFFLINE) $(BIN)/jupyter-book build . --path-output _build/strict -W -n --keep-going 2>&1 | tee _build/strict/build.log; \
	  test $${PIPESTATUS[0]} -eq 0
	@! grep -n "Executing notebook" _build/strict/build.log || { echo "pages were executed by jupyter-book: helpers.book.build.prebuild's cache records did not match"; exit 1; }
	! grep -rlE '(src|href)="https?://[^"]+\.(js|css)' _build/strict/_build/html --include='*.html'

# The PDF book's LaTeX sources, from the strict build's execution cache (no TeX needed): every table and
# download line must reach them in a printable form, never an IPython placeholder or raw HTML.
latex-book: strict-book
	BOOK_CORPUS=data/raw BOOK_ANALYSIS_CACHE=_build/strict/analysis-cache \
	  BOOK_FIGURE_DIR=_build/strict/_build/html/figures BOOK_BASE_URL=$(STRICT_BASE_URL) \
	  $(OFFLINE) $(BIN)/jupyter-book build . --builder latex --path-output _build/strict -n --keep-going
	! grep -n 'IPython.core.display' _build/strict/_build/latex/book.tex
	! grep -nE '<(a|p|table|div|span|script|br)[ >/]' _build/strict/_build/latex/book.tex

clean:
	rm -rf _build .pytest_cache

# Online and explicit: checks every link of the corpus and saves a dated CSV the book then shows.
linkcheck: setup
	$(BIN)/python -m helpers linkcheck $(CORPUS) --out data/linkcheck

# The whole book as one PDF through LaTeX (installs TeX with apt on first use; not part of make test).
# Keyed as make book is (one folder per corpus, settings, code and page inputs), so a corpus change never
# reuses pages executed on another corpus.
pdf: setup
	command -v latexmk >/dev/null && kpsewhich bbm.sty >/dev/null || apt-get install -y texlive-latex-extra latexmk texlive-xetex fonts-freefont-otf && apt-get install -y --no-install-recommends texlive-fonts-extra
	@key=$$(BOOK_CORPUS="$(CORPUS)" $(BIN)/python -m helpers fingerprint $(CORPUS)) && \
	echo "corpus: $(CORPUS) (build key $$key)" && \
	export BOOK_CORPUS="$(CORPUS)" BOOK_FIGURE_DIR=_build/pdf/$$key/_build/html/figures && \
	rm -rf _build/pdf/$$key/_build/latex && \
	$(BIN)/python -m helpers.book.build.prebuild --path-output _build/pdf/$$key && \
	$(BIN)/jupyter-book build . --builder pdflatex --path-output _build/pdf/$$key && \
	ln -sfn $$key/_build/latex/book.pdf _build/pdf/book.pdf && \
	echo "pdf: _build/pdf/book.pdf"

# JupyterLab on the chapters: each MyST chapter opens as a notebook (jupytext), its Markdown rendered by
# jupyterlab-myst; edit its parameters cell (corpus, number of themes, seed) and run all. LAB_PORT picks the port
# (default 8888; a taken port is one line of error), e.g. make lab LAB_PORT=8890; LAB_ARGS passes other options to
# JupyterLab, e.g. LAB_ARGS=--no-browser (a --port there is taken as LAB_PORT); LAB_CHAPTER picks the chapter
# opened (default chapters/themes.md).
# Autosave is off, so a chapter changes on disk only when you save it (File > Save As keeps an edited copy).
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json
LAB_CHAPTER ?= chapters/themes.md
LAB_PORT ?= 8888
# JupyterLab is installed beside the pins without changing any of them (the installed versions are its
# constraints), so the book's build key stays the same; as root (a container) JupyterLab needs --allow-root.
LAB_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
lab-deps: setup
	mkdir -p _build
	$(BIN)/python -m pip freeze --exclude-editable > _build/lab-constraints.txt
	$(BIN)/python -m pip install -q -r requirements-lab.txt -c _build/lab-constraints.txt
	mkdir -p $(dir $(LAB_SETTINGS))
	$(BIN)/python -c 'import sys; from helpers.book.lab.launch import main; sys.exit(main(["settings"]))' > $(LAB_SETTINGS)

lab: lab-deps
	@launch=$$($(BIN)/python -m helpers.book.lab.launch port "$(LAB_PORT)" $(LAB_ARGS)) && \
	eval "set -- $$launch" && port=$$1 && shift && \
	token=$$($(BIN)/python -c "import secrets; print(secrets.token_hex(24))") && \
	echo "JupyterLab on $(LAB_CHAPTER): http://127.0.0.1:$$port/lab/tree/$(LAB_CHAPTER)?token=$$token" && \
	BOOK_NOTEBOOK=1 BOOK_FIGURES_IN_BACKGROUND=1 $(BIN)/jupyter lab --notebook-dir=. $(LAB_ROOT) --ServerApp.ip=127.0.0.1 --ServerApp.port=$$port \
	  --ServerApp.port_retries=0 --IdentityProvider.token=$$token \
	  --ServerApp.contents_manager_class=helpers.book.lab.contents.BookContentsManager \
	  --ServerApp.default_url=/lab/tree/$(LAB_CHAPTER) "$$@"

# Benchmarks: the real ICML slice in ../shared (when present) and synthetic corpora; SIZES overrides.
SIZES ?= 1000 10000 20000 100000
bench: setup
	cd benchmarks && ../$(BIN)/python run.py $(SIZES) && ../$(BIN)/python selection.py && ../$(BIN)/python selection_search.py && ../$(BIN)/python groups.py && ../$(BIN)/python book_build.py

# The analysis targets alone, in a few minutes on a quiet machine: the real ICML corpora (against one LDA fit) and 20,000
# synthetic abstracts (against a TF-IDF pass), medians of three; results.csv keeps its other sizes.
bench-quick: setup
	cd benchmarks && ../$(BIN)/python run.py 20000 --merge

# The largest corpora, long (about 35 minutes on two cores): LARGE_SIZES synthetic abstracts on the local engine and on
# a local Dask cluster of two workers -> benchmarks/large_results.csv (wall time, seconds per stage, peak memory
# of every process), shown on the Performance page. Not part of make bench or make test.
LARGE_SIZES ?= 100000 1000000
# The same abstracts in one file, read in pieces -> benchmarks/large_file_results.csv
LARGE_FILE_SIZES ?= 1000000
bench-large: setup
	cd benchmarks && ../$(BIN)/python large.py --sizes $(LARGE_SIZES)
	cd benchmarks && ../$(BIN)/python large.py --one-file --sizes $(LARGE_FILE_SIZES)

# The themes' peers on the independent yardstick (issue 38): BERTopic with TF-IDF + SVD document vectors, in a
# benchmark-only environment (.venv-peers, from the registry; never needed by make book or make test), at the k of
# benchmarks/results/theme_yardstick.csv -> theme_peers.csv, and the word-intrusion items and key of tests/evaluation.
# BERTopic goes in with --no-deps: sentence-transformers (torch, models from a hub) cannot serve offline.
PEERS_VENV := .venv-peers
BERTOPIC := bertopic==0.17.4
$(PEERS_VENV)/.installed: requirements.txt benchmarks/requirements-peers.txt pyproject.toml
	test -x $(PEERS_VENV)/bin/python || $(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install -q --upgrade pip
	$(PEERS_VENV)/bin/python -m pip install -q -r requirements.txt -r benchmarks/requirements-peers.txt
	$(PEERS_VENV)/bin/python -m pip install -q --no-deps $(BERTOPIC)
	$(PEERS_VENV)/bin/python -m pip install -q --no-deps -e .
	touch $@

bench-peers: $(PEERS_VENV)/.installed
	$(PEERS_VENV)/bin/python benchmarks/theme_peers.py

# A blind reader's answers to those items (tests/evaluation/word_intrusion_answers.csv, see its README) scored
# against the key -> benchmarks/results/word_intrusion.csv, on the Validation page.
word-intrusion: setup
	$(BIN)/python benchmarks/word_intrusion.py

# The term map against the labelled terms of tests/evaluation (three rankings; 57, 644 and 3,000 abstracts),
# and the themes on two vocabularies: benchmarks/results/term_quality.csv, theme_vocabulary.csv
term-quality: setup
	$(BIN)/python benchmarks/term_quality.py && $(BIN)/python benchmarks/theme_vocabulary.py

# pyinstrument report of one analysis (PROFILE_SIZE abstracts): benchmarks/out/profile-<n>.html
PROFILE_SIZE ?= 10000
profile: setup
	$(BIN)/pip install --quiet -r benchmarks/requirements.txt
	cd benchmarks && ../$(BIN)/python profile_run.py $(PROFILE_SIZE)

# Two clean book builds must give byte-identical figure data (CSV).
check-determinism: setup
	for run in a b; do rm -rf _build/determinism-$$run; \
	  BOOK_CORPUS="$(CORPUS)" BOOK_ANALYSIS_CACHE=_build/determinism-$$run/analysis-cache \
	  BOOK_FIGURE_DIR=_build/determinism-$$run/_build/html/figures \
	  $(BIN)/jupyter-book build . --path-output _build/determinism-$$run -q || exit 1; done
	diff -r --brief -x '*.png' -x '*.svg' -x '*.pdf' _build/determinism-a/_build/html/figures _build/determinism-b/_build/html/figures
	@echo "figure data identical in two clean builds"
