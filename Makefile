# lore's tasks. `make test` is what CI runs (.ci/run).
GO      ?= go
BIN     ?= bin
PKGS    := ./...
# A count, not a duration: Go 1.26's fuzz coordinator can report a spurious
# "context deadline exceeded" at a -fuzztime deadline (golang/go#75804).
FUZZTIME ?= 5000x

.PHONY: build install test bench lint fmt cover demo fuzz update-golden hooks clean

build: ## build lore and the lean hook binary into ./bin
	$(GO) build -o $(BIN)/ ./cmd/lore ./cmd/lore-hook

install: ## install lore and lore-hook into GOBIN
	$(GO) install ./cmd/lore ./cmd/lore-hook

test: ## vet and run every test (unit, end-to-end scripts, fuzz seed corpora)
	$(GO) vet $(PKGS)
	$(GO) test -count=1 $(PKGS)

bench: ## benchmarks with ratios against baselines measured in the same run
	$(GO) test -p 1 -run '^$$' -bench . -benchtime=1x -count=1 $(PKGS)

lint: ## gofmt check and vet
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo 'gofmt: run make fmt'; exit 1; }
	$(GO) vet $(PKGS)

fmt:
	gofmt -w .

cover:
	$(GO) test -count=1 -coverprofile=tmp/cover.out $(PKGS)
	$(GO) tool cover -func=tmp/cover.out | tail -1

fuzz: ## a short, bounded run of every fuzz target (FUZZTIME each)
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

update-golden: ## refresh golden files
	$(GO) test $(PKGS) -update

demo: build ## the main job on a throwaway repository
	./demo/run.sh $(BIN)

hooks: build ## use lore's own git hooks in this repository
	git config core.hooksPath .githooks

clean:
	rm -rf $(BIN) tmp
