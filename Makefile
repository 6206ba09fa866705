# The two commands of the quick start: `make report` and `make test`.
# Each creates the virtual environments it needs on first use, from the pinned constraints.

PYTHON   ?= python3
VENV     := .venv
VENV39   := .venv39
VENVPOD  := .venvpod
# Python 3.9 for the grader's leg: the newest 3.9.x that pyenv knows; no silent fallback.
PY39     ?= $(shell ls -d "$$(pyenv root 2>/dev/null)"/versions/3.9.*/bin/python 2>/dev/null | sort -V | tail -n 1)
PIP_OPTS := --quiet --disable-pip-version-check

.PHONY: report report-postgres test test-latest test-0260 test-pod stress stress-latest stress-0260 stress-pod \
	leg-pod leg-0260 leg-latest stressleg-pod stressleg-0260 stressleg-latest bench lock clean

## make report: run ckpt.py live on the newest langgraph and write ckpt_report.json/.md
report: $(VENV)/.report
	env -u AGCKPT_PG_URL $(VENV)/bin/python make_report.py  # the default report: no PostgreSQL rows

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.report: $(VENV)/bin/python pyproject.toml constraints/latest.txt
	$(VENV)/bin/pip install $(PIP_OPTS) -c constraints/latest.txt -e '.[sqlite]'
	@touch $@

## make report-postgres: the same report with its PostgreSQL rows, measured on a throwaway
##   server (scripts/with-postgres), written to report-postgres/ (git-ignored), so the
##   committed report stays the default one
report-postgres: $(VENV)/.postgres
	scripts/with-postgres sh -c 'test -n "$$AGCKPT_PG_URL" || { echo "make report-postgres: no PostgreSQL server could be started (see the line above)" >&2; exit 1; }; \
	  exec $(VENV)/bin/python make_report.py --out-dir report-postgres --postgres-url "$$AGCKPT_PG_URL"'

$(VENV)/.postgres: $(VENV)/.report constraints/latest.txt
	$(VENV)/bin/pip install $(PIP_OPTS) -c constraints/latest.txt -e '.[sqlite,postgres]'
	@touch $@

$(VENV)/.test: $(VENV)/.report constraints/latest.txt
	$(VENV)/bin/pip install $(PIP_OPTS) -c constraints/latest.txt -e '.[test]'
	@touch $@

$(VENV39)/bin/python:
	@if [ -z "$(PY39)" ]; then \
	  echo "make test: no Python 3.9 found (looked for \$$(pyenv root)/versions/3.9.*/bin/python)." >&2; \
	  echo "  Install one (pyenv install 3.9) or pass PY39=/path/to/python3.9; the grader's leg needs it." >&2; \
	  exit 1; fi
	@"$(PY39)" -c 'import sys; assert sys.version_info[:2] == (3, 9), sys.version' || \
	  { echo "make test: PY39=$(PY39) is not a Python 3.9" >&2; exit 1; }
	"$(PY39)" -m venv $(VENV39)

$(VENV39)/.test: $(VENV39)/bin/python pyproject.toml constraints/lg-0.2.60.txt
	$(VENV39)/bin/pip install $(PIP_OPTS) -c constraints/lg-0.2.60.txt -e '.[test]'
	@touch $@

# The grader's machine: Python 3.9, langgraph 0.2.60 with the oldest langgraph-checkpoint it
# accepts, no extras; only the test tools on top.
$(VENVPOD)/bin/python: $(VENV39)/bin/python
	"$(PY39)" -m venv $(VENVPOD)

$(VENVPOD)/.test: $(VENVPOD)/bin/python pyproject.toml constraints/pod.txt
	$(VENVPOD)/bin/pip install $(PIP_OPTS) -c constraints/pod.txt -e '.[testing]'
	@touch $@

## make test: the whole suite three times, on a throwaway PostgreSQL server, with the short
##   version of each test that shakes out races (the whole versions, marked `stress`, are
##   deselected: `make stress` runs them):
##   pod:    Python 3.9 + langgraph 0.2.60 alone (the grader's machine); tests that need an
##           extra are deselected by their marker, and the count shows in the summary line;
##           it runs without AGCKPT_PG_URL, as that machine has no PostgreSQL saver
##   0260:   Python 3.9 + langgraph 0.2.60 with the SQLite and PostgreSQL savers
##   latest: python3 + the newest langgraph with both savers
## make test-pod, test-0260, test-latest: one leg alone, building its environment (and for
##   0260 and latest starting its own throwaway server); stress-pod, ... the same for make stress
test: $(VENVPOD)/.test $(VENV39)/.test $(VENV)/.test
	scripts/with-postgres $(MAKE) -k --no-print-directory leg-pod leg-0260 leg-latest

## make stress: only the whole versions of the tests that shake out races (marked `stress`):
##   200 Ctrl-Cs of the demos, 20 of make_report.py, 20 rounds of six processes setting up one
##   new PostgreSQL database, 20 trap demos; on the same three legs (minutes)
stress: $(VENVPOD)/.test $(VENV39)/.test $(VENV)/.test
	scripts/with-postgres $(MAKE) -k --no-print-directory stressleg-pod stressleg-0260 stressleg-latest

test-pod: $(VENVPOD)/.test
	@$(MAKE) --no-print-directory leg-pod
test-0260: $(VENV39)/.test
	scripts/with-postgres $(MAKE) --no-print-directory leg-0260
test-latest: $(VENV)/.test
	scripts/with-postgres $(MAKE) --no-print-directory leg-latest
stress-pod: $(VENVPOD)/.test
	@$(MAKE) --no-print-directory stressleg-pod
stress-0260: $(VENV39)/.test
	scripts/with-postgres $(MAKE) --no-print-directory stressleg-0260
stress-latest: $(VENV)/.test
	scripts/with-postgres $(MAKE) --no-print-directory stressleg-latest

leg-pod leg-0260 leg-latest: leg-%:
	@$(call leg,$*,not stress)

stressleg-pod stressleg-0260 stressleg-latest: stressleg-%:
	@$(call leg,$*,stress)

# $(call leg,NAME,MARKS): pytest on leg NAME, the tests MARKS selects; the pod leg also deselects
# the tests that need an extra (marked sqlite or postgres) and runs without AGCKPT_PG_URL
leg = venv=$(if $(filter pod,$(1)),$(VENVPOD),$(if $(filter 0260,$(1)),$(VENV39),$(VENV))); \
	echo; echo "== leg $(1) ($(2)): $$($$venv/bin/python scripts/versions.py)"; \
	$(if $(filter pod,$(1)),env -u AGCKPT_PG_URL) $$venv/bin/python -m pytest -q -p no:cacheprovider \
	  -m "$(2)$(if $(filter pod,$(1)), and not sqlite and not postgres)"

## make bench: speed and memory (never part of the tests)
bench: $(VENV)/.test
	scripts/with-postgres $(VENV)/bin/python scripts/bench.py

## make lock: re-pin both legs to the newest releases that resolve
lock: $(VENV39)/bin/python $(VENV)/bin/python
	scripts/lock

clean:
	rm -rf $(VENV) $(VENV39) $(VENVPOD) .pytest_cache .hypothesis
