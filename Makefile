# Tavolo: `make run` starts the whole platform, `make test` runs every test.
# Both create the virtual environment on first use (Python >= 3.11 as python3).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install lint typecheck format protos compiled i18n bench soak soak-solitario soak-league soak-ismcts clean deploy-tools manifests browser node typescript protos-baseline

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

# The TypeScript SDK (clients/typescript) and the protos' checks need Node.js 20+ and npm;
# `npm ci` installs the pinned buf, protoc-gen-es and TypeScript from package-lock.json.
TS       := clients/typescript
BUF      := $(TS)/node_modules/.bin/buf
TS_STAMP := $(TS)/node_modules/.installed
BASELINE := protos/baseline/tavolo-v1.binpb

node:
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		echo "Node.js 20+ and npm are needed (the TypeScript SDK and buf): install them from" \
			"https://nodejs.org/en/download (or your system's nodejs and npm packages)"; exit 1; }
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || { \
		echo "Node.js 20+ is needed, this is $$(node --version): https://nodejs.org/en/download"; exit 1; }

$(TS_STAMP): $(TS)/package.json $(TS)/package-lock.json | node
	cd $(TS) && npm ci --ignore-scripts --no-audit --no-fund
	@touch $(TS_STAMP)

# buf lint, buf breaking against the API's baseline, and the SDK type-checked (strict).
typescript: $(TS_STAMP)
	$(BUF) lint protos
	$(BUF) breaking protos --against $(BASELINE)
	cd $(TS) && node_modules/.bin/tsc -p tsconfig.json --noEmit

# A release accepts the API as it is: the baseline that later changes must not break.
protos-baseline: $(TS_STAMP)
	$(BUF) build protos --exclude-source-info -o $(BASELINE)

# The rules tests run a second time on the rules compiled by mypyc, which is what the
# container image ships (tools/compile_rules.py); the large random runs ("load") once.
test: $(STAMP) $(DEPLOY_STAMP) lint compiled browser typescript
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

# Both generated clients, Python's (libs/protocol) and the TypeScript SDK's (src/gen).
protos: $(STAMP) $(TS_STAMP)
	$(BIN)/python tools/gen_protos.py
	cd $(TS) && npm run --silent generate

# The terminal client's catalogues (libs/cli/locale): the .po files updated from the code,
# then compiled to the .mo files the client reads; both are committed (tools/i18n.py).
i18n: $(STAMP)
	$(BIN)/python tools/i18n.py
	@$(BIN)/python tools/i18n.py --check || { echo "(messages above lack an Italian translation)"; true; }

compiled: $(STAMP)
	$(BIN)/python tools/compile_rules.py

bench: $(STAMP) compiled
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	@for script in bench/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script || exit 1; \
	done

soak: $(STAMP)
	TAVOLO_SOAK=full $(BIN)/python -m pytest -q -p no:cacheprovider --timeout 3600 -m 'fault or load' tests

# Klondike's bots on 10,000 seeded deals at draw 1 and draw 3, deal by deal, beside the
# published greedy solvers (half an hour or more on two cores): kept out of `make test`
# and `make bench`.
soak-solitario: $(STAMP)
	$(BIN)/python bench/bench_bot_league.py solitario --deals 10000 --jobs 2 \
		--steps 'easy<hard,medium<hard' --detail --selfplay 0

# Every game's bot ladder, 2,000 seat-rotated deals a pairing, ending with the markdown
# table: about 100 CPU-minutes (40 deals took 2.0), so under an hour on two idle cores and
# many hours on a shared machine; kept out of `make test` and `make bench`.
soak-league: $(STAMP)
	$(BIN)/python bench/bench_bot_league.py --deals 2000 --jobs 2 --detail --markdown

# Hard Spades and Hearts against OpenSpiel's ISMCTS searching our rules, 100
# seat-swapped deals each on the compiled rules: hours on two cores.
soak-ismcts: $(STAMP) compiled
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	PYTHONPATH=build/compiled $(BIN)/python bench/bench_ismcts.py --deals 100 --jobs 2

clean:
	rm -rf build .data .pytest_cache .mypy_cache .ruff_cache .venv-deploy
