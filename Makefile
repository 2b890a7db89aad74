# lore's tasks. `make test` is what CI runs (.ci/run).
GO      ?= go
BIN     ?= bin
PKGS    := ./...

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

fuzz: ## a short, bounded run of every fuzz target
	@for t in $$(grep -rho 'func Fuzz[A-Za-z0-9_]*' --include='*_test.go' . | sed 's/func //' | sort -u); do \
		pkg=$$(grep -rl "func $$t(" --include='*_test.go' . | head -1 | xargs dirname); \
		echo "fuzz $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime=10s $$pkg || exit 1; \
	done

update-golden: ## refresh golden files
	$(GO) test $(PKGS) -update

demo: build ## the main job on a throwaway repository
	./demo/run.sh $(BIN)

hooks: build ## use lore's own git hooks in this repository
	git config core.hooksPath .githooks

clean:
	rm -rf $(BIN) tmp
