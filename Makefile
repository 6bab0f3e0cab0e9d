# pt's everyday targets. `make check` is what a change must pass.
GO ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build test demo lint check e2e web-shots windows-smoke bench bench-mcp bench-cli

build:
	$(GO) build -o bin/pt ./cmd/pt

test:
	$(GO) test ./...

demo:
	$(GO) run ./cmd/pt demo

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	GOOS=windows $(GO) vet ./...

check: lint
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
	$(GO) test -race ./...

windows-smoke:
	bash .ci/windows-smoke

# The web view's browser tests need Chromium (apt-get install chromium);
# they skip with a message without it.
e2e:
	PT_E2E=1 $(GO) test ./mcp/... ./cmd/pt/... -run 'E2E|Conformance' -v
	PT_E2E=1 $(GO) test -count=1 -run 'TestDerivedIndexIsAFunctionOfHead' ./ingest/

# The screenshots of docs/web.md, taken by the browser tests.
web-shots:
	PT_E2E=1 PT_WEB_SHOTS=$(CURDIR)/docs/web $(GO) test -count=1 ./mcp/web -run 'E2EBrowse' -v

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

# query_knowledge_base over HTTP against a separate pt serve process, 8
# clients; PT_BENCH_PAGES=100000 for the large space (docs/performance.md).
bench-mcp:
	$(GO) test ./mcp -run '^$$' -bench ServeQuery -benchtime 2000x -timeout 60m

# Whole-process figures against git and ripgrep on generated spaces of
# 10,000 pages (and 100,000 with BENCH_LARGE=1), kept under $$PT_BENCH_DIR
# (default a folder in the temporary directory). See docs/performance.md.
bench-cli: build
	$(GO) run ./cmd/ptbench -pt bin/pt
