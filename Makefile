# mattn/go-sqlite3 needs cgo and the sqlite_fts5 build tag for full-text
# search; every target here passes it so nobody has to remember.
GO      ?= go
TAGS    := sqlite_fts5
export CGO_ENABLED := 1

.PHONY: build test demo answer bench fuzz vet

build:
	$(GO) build -tags $(TAGS) -o bin/herald ./cmd/herald

# Everything under the race detector, then the corpus robustness tests (facts and answers),
# which -race runs on a sample or skips, over all 1,143 issues. The race run of knowledge
# takes seven minutes alone on 2 cores and more beside the other packages, near go test's
# default ten-minute limit per package (a clean-clone CI run hit it), hence 30m.
test:
	$(GO) test -race -timeout 30m -tags $(TAGS) ./...
	$(GO) test -tags $(TAGS) -run '^TestMetamorphic(Corpus(Answers)?|AnswersWithCorpus)$$' ./knowledge

# Herald's main job on its embedded defaults: a fake forum seeded with
# support topics and the bot in auto mode answering them. No forum, no
# config. Ctrl-C stops it.
demo:
	@echo "building herald (the first build compiles SQLite with cgo: about 1-3 minutes on 2 cores; later ones take seconds)..."
	$(GO) build -tags $(TAGS) -o bin/herald ./cmd/herald
	bin/herald demo $(DEMO_FLAGS)

# One post, one answer, from the built-in vLLM knowledge pack.
answer:
	@echo "building herald (the first build compiles SQLite with cgo: about 1-3 minutes on 2 cores)..."
	$(GO) run -tags $(TAGS) ./cmd/herald answer examples/oom-rocm-offload.md \
		--title "Running out of memory despite very low --gpu-memory-utilization"

vet:
	$(GO) vet -tags $(TAGS) ./...

# Quick versions of the measurements; see README "Benchmarks" for the full
# runs. SHARED points at the read-only shared folder beside the repository.
SHARED ?= ../shared
bench: build
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem -short ./knowledge/ ./bot/
	$(GO) test -tags $(TAGS) -run '^$$' -bench 'SemEval|Speed' -benchtime 1x ./cmd/herald/ \
		-args -speed.sizes=1000,10000 -speed.posts=100 -semeval.dir=$(abspath $(SHARED))/bench/semeval-cqa-subtaskB
	@if [ -f $(SHARED)/bench/vllm-dev/cases.jsonl ]; then \
		bin/herald bench cases $(SHARED)/bench/vllm-dev/cases.jsonl; \
	else echo "skipping bench cases: $(SHARED)/bench not found"; fi

# Run every fuzz target of every package for FUZZTIME (default 20s) each.
# The targets are listed by go test itself, so a new one is fuzzed without
# editing this file (a hand-kept list had fallen six targets behind).
FUZZTIME ?= 20s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -tags $(TAGS) -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$t"; \
			$(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done
