# Local targets. `make test` is the canonical test command: .ci/run runs it.
GO       ?= go
FUZZTIME ?= 10s

.PHONY: build test fuzz-smoke bench bench-peers proto

## build: the holon-actors binary in the repository root
build:
	$(GO) build -o holon-actors ./cmd/holon-actors

## proto: regenerate the committed protobuf code (remote/remotepb, messages/messagespb, cluster/clusterpb)
## with protoc (Debian's protobuf-compiler) and protoc-gen-go at the version
## go.mod pins, then record its hashes for remotepb's staleness test
PROTOS = messages/messages.proto remote/remotepb/remote.proto cluster/clusterpb/cluster.proto
proto:
	@command -v protoc >/dev/null || { echo "protoc is missing: apt-get install -y protobuf-compiler"; exit 1; }
	d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	$(GO) build -o "$$d/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go && \
	protoc -I. --plugin=protoc-gen-go="$$d/protoc-gen-go" --go_out=. \
		--go_opt=module=github.com/holon-actors/holon-actors $(PROTOS)
	$(GO) test ./remote/remotepb -run '^TestGeneratedCode$$' -count=1 -update

# staticcheck 2026.2.2, run from the module proxy (go.mod is not touched)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

# Parallel tests running at once in each package (go test's default is GOMAXPROCS). cmd/holon-actors's
# end-to-end tests run side by side and mostly wait on the processes they start: on 2 cores the package
# took 478 s at 2, 303 s at 4, 249 s at 6 (832 s in CI when they ran one after another).
TEST_PARALLEL ?= 6

## test: vet and staticcheck, then every test with the race detector, uncached
test:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test -race -count=1 -timeout 20m -parallel $(TEST_PARALLEL) ./...

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

# The LangGraph.js peer harness lives outside the repository (npm ci runs there once).
LANGGRAPH_HARNESS ?= ../shared/peers/langgraph

## bench-peers: the same workload (1,000 agents x 5 turns, one tool call each, durable) on the
## LangGraph.js harness and on bench turns, back to back; prints both and their ratio as JSON
bench-peers:
	LANGGRAPH_HARNESS="$(LANGGRAPH_HARNESS)" scripts/bench-peers.sh
