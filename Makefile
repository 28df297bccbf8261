# Local targets. `make test` is the canonical test command: .ci/run runs it.
GO       ?= go
FUZZTIME ?= 10s

.PHONY: build test fuzz-smoke bench

## build: the holon-actors binary in the repository root
build:
	$(GO) build -o holon-actors ./cmd/holon-actors

# staticcheck 2026.2.2, run from the module proxy (go.mod is not touched)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

## test: vet and staticcheck, then every test with the race detector, uncached
test:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test -race -count=1 -timeout 15m ./...

## fuzz-smoke: each fuzz target for FUZZTIME (go test fuzzes one package at a time)
fuzz-smoke:
	$(GO) test -run='^$$' -fuzz=FuzzDecodeRecord -fuzztime=$(FUZZTIME) ./persistence
	$(GO) test -run='^$$' -fuzz=FuzzDecodeEnvelope -fuzztime=$(FUZZTIME) ./messages
	$(GO) test -run='^$$' -fuzz=FuzzDecodeBody -fuzztime=$(FUZZTIME) ./control
	$(GO) test -run='^$$' -fuzz=FuzzReadSSE -fuzztime=$(FUZZTIME) ./control
	$(GO) test -run='^$$' -fuzz=FuzzCodexStream -fuzztime=$(FUZZTIME) ./providers/openai
	$(GO) test -run='^$$' -fuzz=FuzzChatReply -fuzztime=$(FUZZTIME) ./providers/openaichat

## bench: the load generators with their default workloads, then the Go benchmarks
bench:
	$(GO) run ./cmd/holon-actors bench journal
	$(GO) run ./cmd/holon-actors bench journal-recovery
	$(GO) run ./cmd/holon-actors bench mailbox
	$(GO) run ./cmd/holon-actors bench turns
	$(GO) run ./cmd/holon-actors bench children
	$(GO) run ./cmd/holon-actors bench recovery
	$(GO) run ./cmd/holon-actors bench api
	$(GO) run ./cmd/holon-actors bench transport
	$(GO) run ./cmd/holon-actors bench exec
	$(GO) test -run='^$$' -bench=. -benchmem ./...
