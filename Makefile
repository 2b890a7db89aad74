# lore's tasks. CI (.ci/run) runs `make test`, then `make lint`; `make help`
# lists them.
GO      ?= go
BIN     ?= bin
PKGS    := ./...
.DEFAULT_GOAL := build
# golangci-lint is pinned in its own modfile: its ~200 modules would
# otherwise share lore's go.mod and raise lore's own dependencies.
GOLANGCI := $(GO) tool -modfile=tools/golangci-lint.mod golangci-lint
# deadcode needs golang.org/x/telemetry, which lore does not: run at the
# x/tools version staticcheck already pins in go.mod, outside go.mod.
DEADCODE := $(GO) run golang.org/x/tools/cmd/deadcode@v0.51.0
# Test support: packages only tests import (layers_test.go holds them to it).
TEST_SUPPORT := internal/testrepo internal/synthetic internal/benchproc internal/fuzzlimit
space := $(subst ,, )
# The packages whose tests define -update (a golden file to rewrite).
GOLDEN_PKGS := $(sort $(patsubst %/,%,$(dir $(shell grep -rl --include='*_test.go' --exclude-dir=tmp --exclude-dir=.git 'flag\.Bool."update"' .))))
# A count, not a duration: Go 1.26's fuzz coordinator can report a spurious
# "context deadline exceeded" at a -fuzztime deadline (golang/go#75804).
FUZZTIME ?= 5000x

# make e2e: the real agent clients from npm (pinned; E2E_VERSION=latest for
# the newest of each), run against stand-in model servers on 127.0.0.1.
E2E_CACHE       ?= tmp/e2e
E2E_CLIENTS     ?= claude codex gemini
CLAUDE_VERSIONS ?= 2.1.330 2.1.197
CODEX_VERSION   ?= 0.169.0
GEMINI_VERSION  ?= 0.61.0
ifeq ($(E2E_VERSION),latest)
CLAUDE_VERSIONS := latest
CODEX_VERSION   := latest
GEMINI_VERSION  := latest
endif
e2e_specs := $(if $(filter claude,$(E2E_CLIENTS)),$(addprefix claude=,$(CLAUDE_VERSIONS))) \
	$(if $(filter codex,$(E2E_CLIENTS)),codex=$(CODEX_VERSION)) \
	$(if $(filter gemini,$(E2E_CLIENTS)),gemini=$(GEMINI_VERSION))
e2e_empty :=
# TestCodexTrust (lore doctor against Codex's own hook trust) runs with codex.
e2e_run := (?i)^Test($(subst $(e2e_empty) $(e2e_empty),|,$(strip $(E2E_CLIENTS))))(Trust)?$$

.PHONY: help build install check deadcode test test-short bench lint fmt cover demo fuzz update-golden hooks clean e2e

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z0-9-]+:.*## / {printf "  %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# lore --version names the tag or commit a checkout was built from (the
# version string: internal/version); empty outside a git checkout.
VERSION_TAG   := $(shell git describe --tags --always --dirty 2>/dev/null)
VERSION_FLAGS := $(if $(VERSION_TAG),-ldflags "-X github.com/lore-agents/lore/internal/version.stamped=$(VERSION_TAG)")

# The binaries are built without cgo: lore's one cgo package is os/user
# (through kong), and a binary that needs the dynamic loader and libc
# starts 0.6 ms slower, on every git hook and agent hook.
build: ## build lore and the lean hook binary into ./bin
	CGO_ENABLED=0 $(GO) build $(VERSION_FLAGS) -o $(BIN)/ ./cmd/lore ./cmd/lore-hook

install: ## install lore and lore-hook into GOBIN
	CGO_ENABLED=0 $(GO) install $(VERSION_FLAGS) ./cmd/lore ./cmd/lore-hook

check: ## the cheap checks: gofmt, go vet, go mod tidy -diff, staticcheck
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo 'gofmt: run make fmt'; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) vet -tags e2e ./e2e
	$(GO) mod tidy -diff
	$(GO) tool staticcheck -tags e2e $(PKGS)

# Unreachable from lore's commands (tests not counted), outside the test
# support; and, counting tests, unreachable anywhere.
deadcode: ## report the functions nothing calls (none, or it fails)
	@all=$$($(DEADCODE) $(PKGS)) && tested=$$($(DEADCODE) -test $(PKGS)) || exit 1; \
		out=$$(printf '%s\n' "$$all" | grep -v -E '^($(subst $(space),|,$(TEST_SUPPORT)))/'; printf '%s' "$$tested"); \
		test -z "$$out" || { echo "$$out"; exit 1; }

# Not golangci-lint: its first build (about 200 modules) takes minutes on
# a fresh machine; make lint runs it, and CI runs both.
test: check deadcode ## the cheap checks and deadcode, then every test (unit, end-to-end scripts, fuzz seed corpora)
	$(GO) test -count=1 $(PKGS)

# -short leaves out the fault, crash, race and oracle suites (each test
# says which it is in its Skip); make test runs them.
test-short: ## the fast loop: every test but the fault, crash, race and oracle suites
	$(GO) test -short -count=1 $(PKGS)

bench: ## benchmarks with ratios against baselines measured in the same run
	$(GO) test -p 1 -run '^$$' -bench . -benchtime=1x -count=1 $(PKGS)

lint: ## golangci-lint (.golangci.yml); its first build takes minutes
	$(GOLANGCI) run $(PKGS)

fmt: ## gofmt every file
	gofmt -w .

cover: ## test coverage into tmp/cover.out, total printed
	@mkdir -p tmp
	$(GO) test -count=1 -coverprofile=tmp/cover.out $(PKGS)
	$(GO) tool cover -func=tmp/cover.out | tail -1

fuzz: ## a short, bounded run of every fuzz target (FUZZTIME each)
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

e2e: ## lore inside the real clients (npm installs in $(E2E_CACHE); E2E_CLIENTS, E2E_VERSION=latest)
	$(GO) vet -tags e2e ./e2e
	@vars=$$(./e2e/install.sh $(E2E_CACHE)/npm $(e2e_specs)) && eval "export $$vars" && \
		LORE_E2E_LOGS=$(abspath $(E2E_CACHE))/logs $(GO) test -tags e2e -count=1 -p 1 -timeout 20m -v -run '$(e2e_run)' ./e2e

update-golden: ## rewrite the golden files (only the packages whose tests define -update)
	$(GO) test -count=1 $(GOLDEN_PKGS) -update

demo: build ## the main job on a throwaway repository
	./demo/run.sh $(BIN)

hooks: build ## use lore's own git hooks in this repository
	git config core.hooksPath .githooks

clean: ## remove bin and tmp
	rm -rf $(BIN) tmp
