# Tavolo: `make run` starts the whole platform, `make test` runs every test.
# Both create the virtual environment on first use (Python >= 3.11 as python3).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install lint typecheck format protos compiled bench soak soak-solitario clean deploy-tools manifests browser

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# The manifest checkers live apart from the project's environment: checkov pins many
# libraries of its own (tools/check_manifests.py).
DEPLOY_STAMP := .venv-deploy/.installed
$(DEPLOY_STAMP): tools/deploy-requirements.txt
	@test -x .venv-deploy/bin/python || $(PYTHON) -m venv .venv-deploy
	.venv-deploy/bin/python -m pip install --quiet --upgrade pip
	.venv-deploy/bin/python -m pip install --quiet -r tools/deploy-requirements.txt
	@touch $(DEPLOY_STAMP)

deploy-tools: $(DEPLOY_STAMP)

manifests: $(DEPLOY_STAMP)
	.venv-deploy/bin/python tools/check_manifests.py

# The replay page's test drives Debian's headless Chromium through Selenium
# (tests/e2e/test_audit_replay_page.py); installed once, as root, where it is missing.
browser:
	@command -v chromedriver >/dev/null || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver)

run: $(STAMP)
	$(BIN)/tavolo up

# The rules tests run a second time on the rules compiled by mypyc, which is what the
# container image ships (tools/compile_rules.py); the large random runs ("load") once.
test: $(STAMP) $(DEPLOY_STAMP) lint compiled browser
	$(BIN)/python -m pytest -q -p no:cacheprovider
	TAVOLO_EXPECT_COMPILED_RULES=1 PYTHONPATH=build/compiled \
		$(BIN)/python -m pytest -q -p no:cacheprovider -m "not load" tests/unit/cardgames

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	tools/typecheck.sh

typecheck: $(STAMP)
	tools/typecheck.sh

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

protos: $(STAMP)
	$(BIN)/python tools/gen_protos.py

compiled: $(STAMP)
	$(BIN)/python tools/compile_rules.py

bench: $(STAMP) compiled
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	@for script in bench/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

soak: $(STAMP)
	TAVOLO_SOAK=full $(BIN)/python -m pytest -q -p no:cacheprovider --timeout 3600 -m 'fault or load' tests

# Klondike's bots on 10,000 seeded deals at draw 1 and draw 3, beside OpenSpiel (half an
# hour or more on two cores): kept out of `make test` and `make bench`.
soak-solitario: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/bench_solitario.py --deals 10000 --levels medium,hard --jobs 2

clean:
	rm -rf build .data .pytest_cache .mypy_cache .ruff_cache .venv-deploy
