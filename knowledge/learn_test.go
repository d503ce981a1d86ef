package knowledge

import (
	"slices"
	"testing"
)

// TestTopicEntryLearnsTheEngineSettings: a solved topic learns the
// settings of the command the post ran, in name order, and before them
// the engine's settings an evaluation harness passed it (lm_eval's
// --model_args list), so that later posts setting them find it.
func TestTopicEntryLearnsTheEngineSettings(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	topic := SolvedTopic{
		ForumURL: "https://forum.example.org", TopicID: 7, Title: "lm_eval hangs with data parallel",
		Question: "```\nlm_eval --model vllm --model_args pretrained=m/x,data_parallel_size=2 --tasks gsm8k --batch_size 8\n```\nIt hangs forever.",
		Answer:   "Run one engine per process: data parallel in offline mode needs a newer vLLM.",
		Answerer: "staff",
	}
	for range 3 { // map order must not show
		e, err := TopicEntry(topic, p.Schema())
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"--data-parallel-size", "--model", "--batch-size", "--model-args", "--tasks"}
		if !slices.Equal(e.Flags, want) {
			t.Fatalf("flags = %v, want %v", e.Flags, want)
		}
	}
}
